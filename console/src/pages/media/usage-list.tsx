import { List, Stack, Text } from '@mantine/core';
import type { MediaUsage } from '../../../../src/shared/media';

/** The playlists and boards that use a medium, for a dialog (outside the router: no links). */
export function UsageList({ usages }: { usages: readonly MediaUsage[] }) {
  return (
    <Stack gap="xs">
      <Text size="sm">It is used by:</Text>
      <List size="sm" aria-label="Where it is used">
        {usages.map((usage) => (
          <List.Item key={`${usage.type}:${usage.id}`}>
            {usage.type === 'playlist' ? 'Playlist' : 'Board'} “{usage.name}”
          </List.Item>
        ))}
      </List>
      <Text size="sm">Deleting it removes it from them: their screens stop showing it.</Text>
    </Stack>
  );
}
