import { Anchor, Badge, Card, Checkbox, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Media } from '../../../../src/shared/media';
import { WriteButton } from '../../ui/write-button';
import { formatBytes } from './format';
import { MediaThumb } from './media-thumb';
import { ReplaceButton, type useReplaceFile } from './replace-file';

function UsedBy({ media }: { media: Media }) {
  if (media.used_by.length === 0) {
    return (
      <Text size="xs" c="dimmed">
        Not used
      </Text>
    );
  }
  return (
    <Text size="xs" component="div">
      Used by{' '}
      {media.used_by.map((usage, index) => (
        <span key={`${usage.type}:${usage.id}`}>
          {index > 0 && ', '}
          {usage.type === 'playlist' ? (
            <Anchor component={Link} to={`/playlists/${usage.id}`} size="xs">
              {usage.name}
            </Anchor>
          ) : (
            <>board “{usage.name}”</>
          )}
        </span>
      ))}
    </Text>
  );
}

/** When it stops playing, in words: "Stops playing 2 Dec 2026, 18:00" or "Stopped playing …". */
function Expiry({ iso }: { iso: string | null }) {
  // The time the card was first drawn: the list is fetched afresh on every visit.
  const [now] = useState(() => Date.now());
  if (iso === null) return null;
  const at = new Date(iso);
  const when = at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  const past = at.getTime() <= now;
  return (
    <Text size="xs" c={past ? 'red' : undefined} fw={past ? 600 : undefined}>
      {past ? `Expired ${when}: screens skip it` : `Stops playing ${when}`}
    </Text>
  );
}

/**
 * One medium of the library: its thumbnail, what it is, its tags, where it is used; selecting
 * it for bulk actions, editing, replacing its file and deleting it.
 */
export function MediaCard({
  media,
  selected,
  onToggle,
  onEdit,
  onDelete,
  replace,
}: {
  media: Media;
  selected: boolean;
  onToggle: () => void;
  onEdit: () => void;
  onDelete: () => void;
  replace: ReturnType<typeof useReplaceFile>;
}) {
  return (
    <Card withBorder padding="sm" component="article" aria-label={media.name} data-testid="media-card">
      <Card.Section>
        <MediaThumb media={media} height={140} playable />
      </Card.Section>
      <Stack gap={4} mt="sm">
        <Group gap="xs" wrap="nowrap">
          <Checkbox aria-label={`Select ${media.name}`} checked={selected} onChange={onToggle} />
          <Text fw={500} size="sm" truncate title={media.name}>
            {media.name}
          </Text>
        </Group>
        <Group gap="xs">
          <Badge variant="light" size="sm">
            {media.kind}
          </Badge>
          <Text size="xs" c="dimmed">
            {media.content_type} · {formatBytes(media.bytes)}
          </Text>
        </Group>
        {media.tags.length > 0 && (
          <Group gap={4} aria-label="Tags">
            {media.tags.map((tag) => (
              <Badge key={tag} variant="outline" size="sm" color="gray" tt="none">
                {tag}
              </Badge>
            ))}
          </Group>
        )}
        <Expiry iso={media.expires_at} />
        <UsedBy media={media} />
        <Group justify="flex-end" mt={4} gap={0}>
          <WriteButton size="xs" variant="subtle" onClick={onEdit} aria-label={`Edit ${media.name}`}>
            Edit
          </WriteButton>
          <ReplaceButton media={media} replace={replace} />
          <WriteButton
            size="xs"
            variant="subtle"
            color="red"
            onClick={onDelete}
            aria-label={`Delete ${media.name}`}
          >
            Delete
          </WriteButton>
        </Group>
      </Stack>
    </Card>
  );
}
