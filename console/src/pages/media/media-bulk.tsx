import { Button, Group, List, Modal, Stack, TagsInput, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Media, MediaUsage } from '../../../../src/shared/media';
import { send } from '../../api/client';
import { BulkBar, useBulkRun } from '../../ui/bulk-bar';
import { counted } from '../../ui/bulk';
import { confirmAction } from '../../ui/confirm';
import { WriteButton } from '../../ui/write-button';
import { retagged } from './media-tags';

const mediaPath = (media: Media) => `/media/${encodeURIComponent(media.id)}`;

/** The playlists and boards the media use, each once, for the deletion's confirmation. */
export function usersOf(media: readonly Media[]): MediaUsage[] {
  const users = new Map<string, MediaUsage>();
  for (const medium of media)
    for (const usage of medium.used_by) users.set(`${usage.type}:${usage.id}`, usage);
  return [...users.values()];
}

function DeleteSummary({ media }: { media: readonly Media[] }) {
  const used = media.filter((medium) => medium.used_by.length > 0);
  const users = usersOf(media);
  return (
    <Stack gap="xs">
      {used.length === 0 ? (
        <Text size="sm">Nothing uses them. Their files are removed from the service.</Text>
      ) : (
        <>
          <Text size="sm">{`${used.length} of them ${used.length === 1 ? 'is' : 'are'} used by:`}</Text>
          <List size="sm" aria-label="Where they are used">
            {users.map((usage) => (
              <List.Item key={`${usage.type}:${usage.id}`}>
                {usage.type === 'playlist' ? 'Playlist' : 'Board'} “{usage.name}”
              </List.Item>
            ))}
          </List>
          <Text size="sm">Deleting takes them out of those: their screens stop showing them.</Text>
        </>
      )}
    </Stack>
  );
}

/**
 * What can be done to the media selected on the Media page, one request per medium with the
 * progress shown and a summary at the end: add or remove tags, or delete them (after a summary
 * of the playlists and boards that use them).
 */
export function MediaBulk({ selected, onClear }: { selected: readonly Media[]; onClear: () => void }) {
  const queries = useQueryClient();
  const bulk = useBulkRun();
  const [tagging, setTagging] = useState(false);
  const [added, setAdded] = useState<string[]>([]);
  const [removed, setRemoved] = useState<string[]>([]);
  const finish = async () => {
    await queries.invalidateQueries({ queryKey: ['media'] });
    onClear();
  };
  const tag = async () => {
    setTagging(false);
    await bulk.run(
      selected,
      (medium) => medium.name,
      (medium) =>
        send(mediaPath(medium), { method: 'PATCH', body: { tags: retagged(medium.tags, added, removed) } }),
      { verb: 'Tagged', noun: 'media file' },
    );
    await finish();
  };
  const remove = async () => {
    const sure = await confirmAction({
      title: `Delete ${counted(selected.length, 'media file')}?`,
      body: <DeleteSummary media={selected} />,
      confirm: `Delete ${counted(selected.length, 'media file')}`,
    });
    if (!sure) return;
    await bulk.run(
      selected,
      (medium) => medium.name,
      // Detached only from what the confirmation listed: one used meanwhile is refused (409).
      (medium) =>
        send(`${mediaPath(medium)}${medium.used_by.length > 0 ? '?detach=true' : ''}`, { method: 'DELETE' }),
      { verb: 'Deleted', noun: 'media file' },
    );
    await finish();
  };
  return (
    <>
      <BulkBar
        count={selected.length}
        noun="media file"
        onClear={onClear}
        bulk={bulk}
        onDelete={() => void remove()}
      >
        <WriteButton
          size="xs"
          onClick={() => {
            setAdded([]);
            setRemoved([]);
            setTagging(true);
          }}
          disabled={bulk.running}
        >
          Tag
        </WriteButton>
      </BulkBar>
      <Modal
        opened={tagging}
        onClose={() => setTagging(false)}
        title={`Tag ${counted(selected.length, 'media file')}`}
      >
        <Stack>
          <TagsInput
            label="Add tags"
            description="Press Enter after each."
            value={added}
            onChange={setAdded}
            data-autofocus
          />
          <TagsInput label="Remove tags" value={removed} onChange={setRemoved} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setTagging(false)}>
              Cancel
            </Button>
            <Button onClick={() => void tag()} disabled={added.length === 0 && removed.length === 0}>
              Tag {counted(selected.length, 'media file')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
