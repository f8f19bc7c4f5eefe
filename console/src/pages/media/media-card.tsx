import { Anchor, Badge, Card, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Media } from '../../../../src/shared/media';
import { WriteButton } from '../../ui/write-button';
import { formatBytes } from './format';
import { MediaThumb } from './media-thumb';

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

/** One medium of the library: its thumbnail, what it is, where it is used, and deleting it. */
export function MediaCard({ media, onDelete }: { media: Media; onDelete: () => void }) {
  return (
    <Card withBorder padding="sm" component="article" aria-label={media.name}>
      <Card.Section>
        <MediaThumb media={media} height={140} playable />
      </Card.Section>
      <Stack gap={4} mt="sm">
        <Text fw={500} size="sm" truncate title={media.name}>
          {media.name}
        </Text>
        <Group gap="xs">
          <Badge variant="light" size="sm">
            {media.kind}
          </Badge>
          <Text size="xs" c="dimmed">
            {media.content_type} · {formatBytes(media.bytes)}
          </Text>
        </Group>
        <UsedBy media={media} />
        <Group justify="flex-end" mt={4}>
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
