import { faMusic } from '@fortawesome/free-solid-svg-icons';
import { Center, Stack, Text } from '@mantine/core';
import type { Media } from '../../../../src/shared/media';
import { FaIcon } from '../../ui/fa-icon';

const FRAME = {
  width: '100%',
  height: '100%',
  objectFit: 'cover',
  display: 'block',
  background: 'var(--mantine-color-default-hover)',
} as const;

/**
 * A medium's thumbnail from its own content: an image as it is (loaded when scrolled to), a video's
 * first frame (only its metadata and that frame are fetched), a sound as an icon, with a player
 * when `playable`.
 */
export function MediaThumb({
  media,
  height,
  playable = false,
}: {
  media: Media;
  height: number;
  playable?: boolean;
}) {
  if (media.kind === 'image') {
    return (
      <div style={{ height }}>
        <img src={media.play_url ?? media.url} alt={media.name} loading="lazy" style={FRAME} />
      </div>
    );
  }
  if (media.kind === 'video') {
    return (
      <div style={{ height }}>
        {/* The fragment asks for the frame just after the start, which some videos leave black. */}
        <video
          src={`${media.play_url ?? media.url}#t=0.1`}
          preload="metadata"
          muted
          aria-label={media.name}
          style={FRAME}
        />
      </div>
    );
  }
  return (
    <Center h={height} bg="var(--mantine-color-default-hover)">
      <Stack gap="xs" align="center" w="100%" px="xs">
        <Text c="dimmed" fz={playable ? 28 : 20}>
          <FaIcon icon={faMusic} title={`Sound: ${media.name}`} />
        </Text>
        {playable && (
          <audio
            controls
            preload="none"
            src={media.play_url ?? media.url}
            aria-label={`Play ${media.name}`}
            style={{ width: '100%' }}
          />
        )}
      </Stack>
    </Center>
  );
}
