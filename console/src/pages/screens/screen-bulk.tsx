import { Alert, Button, Group, List, Modal, Select, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import type { DeviceOverview } from '../../../../src/shared/device';
import { playlistSchema } from '../../../../src/shared/playlist';
import { api, send } from '../../api/client';
import { BulkBar, useBulkRun } from '../../ui/bulk-bar';
import { counted } from '../../ui/bulk';
import { confirmAction } from '../../ui/confirm';
import { WriteButton } from '../../ui/write-button';
import { groupsQuery } from '../schedules/queries';
import { devicePath } from './queries';

const playlistsQuery = { queryKey: ['playlists'], queryFn: () => api(z.array(playlistSchema), '/playlists') };
const nameOf = (screen: DeviceOverview) => screen.name || screen.tag;
const patchDevice = (screen: DeviceOverview, body: Record<string, string | null>) =>
  send(devicePath(screen.tag), { method: 'PATCH', body });

type Choice = 'playlist' | 'group';

/**
 * What can be done to the screens selected on the Screens page, each screen one request with
 * the progress shown and a summary at the end: give them a playlist, move them to a group, or
 * delete them (after a confirmation that names them).
 */
export function ScreenBulk({
  selected,
  onClear,
}: {
  selected: readonly DeviceOverview[];
  onClear: () => void;
}) {
  const queries = useQueryClient();
  const bulk = useBulkRun();
  const [choosing, setChoosing] = useState<Choice | null>(null);
  const [value, setValue] = useState<string | null>(null);
  const playlists = useQuery({ ...playlistsQuery, enabled: choosing === 'playlist' });
  const groups = useQuery({ ...groupsQuery, enabled: choosing === 'group' });
  const options =
    choosing === 'playlist'
      ? [
          { value: '', label: 'No playlist' },
          ...(playlists.data ?? []).map((p) => ({
            value: p.id,
            label: `${p.name} (${counted(p.items.length, 'item')})`,
          })),
        ]
      : [
          { value: '', label: 'No group' },
          ...(groups.data ?? []).map((g) => ({ value: g.id, label: g.name })),
        ];
  const emptyPlaylist =
    choosing === 'playlist' && playlists.data?.find((p) => p.id === value)?.items.length === 0;
  const online = selected.filter((screen) => screen.online).length;

  const finish = async () => {
    await queries.invalidateQueries({ queryKey: ['devices'] });
    onClear();
  };
  const apply = async () => {
    if (!choosing || value === null) return;
    const field = choosing === 'playlist' ? 'playlist_id' : 'group_id';
    const verb =
      choosing === 'playlist' ? (value ? 'Assigned the playlist to' : 'Took the playlist off') : 'Moved';
    setChoosing(null);
    await bulk.run(selected, nameOf, (screen) => patchDevice(screen, { [field]: value || null }), {
      verb,
      noun: 'screen',
    });
    await finish();
  };
  const remove = async () => {
    const sure = await confirmAction({
      title: `Delete ${counted(selected.length, 'screen')}?`,
      body: (
        <Stack gap="xs">
          <Text size="sm">
            {online > 0
              ? `${counted(online, 'screen')} of them ${online === 1 ? 'is' : 'are'} online now. `
              : ''}
            Each must be paired again to show anything from this service.
          </Text>
          <List size="sm">
            {selected.slice(0, 10).map((screen) => (
              <List.Item key={screen.tag}>{nameOf(screen)}</List.Item>
            ))}
            {selected.length > 10 && <List.Item>{`and ${selected.length - 10} more`}</List.Item>}
          </List>
        </Stack>
      ),
      confirm: `Delete ${counted(selected.length, 'screen')}`,
    });
    if (!sure) return;
    await bulk.run(selected, nameOf, (screen) => send(devicePath(screen.tag), { method: 'DELETE' }), {
      verb: 'Deleted',
      noun: 'screen',
    });
    await finish();
  };
  const open = (choice: Choice) => {
    setValue(null);
    setChoosing(choice);
  };
  return (
    <>
      <BulkBar
        count={selected.length}
        noun="screen"
        onClear={onClear}
        bulk={bulk}
        onDelete={() => void remove()}
      >
        <WriteButton size="xs" onClick={() => open('playlist')} disabled={bulk.running}>
          Assign a playlist
        </WriteButton>
        <WriteButton size="xs" variant="default" onClick={() => open('group')} disabled={bulk.running}>
          Move to a group
        </WriteButton>
      </BulkBar>
      <Modal
        opened={choosing !== null}
        onClose={() => setChoosing(null)}
        title={`${choosing === 'playlist' ? 'Assign a playlist to' : 'Move'} ${counted(selected.length, 'screen')}`}
      >
        <Stack>
          <Select
            label={choosing === 'playlist' ? 'Playlist' : 'Group'}
            data={options}
            value={value}
            onChange={setValue}
            searchable
            data-autofocus
            nothingFoundMessage="Nothing matches"
          />
          {emptyPlaylist && (
            <Alert
              color="orange"
              title="This playlist has no items"
              styles={{ title: { color: 'var(--mantine-color-text)' } }}
            >
              The screens given it show “Waiting for a playlist” until it has some.
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setChoosing(null)}>
              Cancel
            </Button>
            <Button onClick={() => void apply()} disabled={value === null}>
              {choosing === 'playlist' ? 'Assign' : 'Move'} to {counted(selected.length, 'screen')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
