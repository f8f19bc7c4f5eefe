import { Anchor, Modal, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { Media } from '../../../../src/shared/media';
import { ErrorAlert } from '../../ui/error-panel';
import { MediaThumb } from '../media/media-thumb';
import { mediaQuery } from '../media/media-query';

/** Mantine's close button has no name of its own. */

/** Picks an image or a video of the media library, by its thumbnail (sounds are not playlist items). */
export function MediaPicker({
  opened,
  onClose,
  onPick,
}: {
  opened: boolean;
  onClose: () => void;
  onPick: (media: Media) => void;
}) {
  const library = useQuery({ ...mediaQuery, enabled: opened });
  const visual = library.data?.media.filter((media) => media.kind !== 'sound').toReversed();
  return (
    <Modal opened={opened} onClose={onClose} title="Add from the media library" size="xl">
      {library.error && <ErrorAlert error={library.error} title="The media library could not be listed" />}
      {visual?.length === 0 && (
        <Text c="dimmed">
          The library holds no image or video yet: upload some on the{' '}
          <Anchor component={Link} to="/media">
            Media
          </Anchor>{' '}
          page.
        </Text>
      )}
      <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} spacing="sm" role="list" aria-label="Images and videos">
        {visual?.map((media) => (
          <div role="listitem" key={media.id}>
            <UnstyledButton
              onClick={() => onPick(media)}
              aria-label={`Add ${media.name}`}
              w="100%"
              style={{
                borderRadius: 'var(--mantine-radius-sm)',
                overflow: 'hidden',
                border: '1px solid var(--mantine-color-default-border)',
              }}
            >
              <Stack gap={0}>
                <MediaThumb media={media} height={90} />
                <Text size="xs" p={6} truncate title={media.name}>
                  {media.name}
                </Text>
              </Stack>
            </UnstyledButton>
          </div>
        ))}
      </SimpleGrid>
    </Modal>
  );
}
