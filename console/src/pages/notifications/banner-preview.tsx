import '../../../../renderer/src/player/player.css';
import './banner-preview.css';
import { Box, Text } from '@mantine/core';
import { useElementSize, useViewportSize } from '@mantine/hooks';
import { useEffect, useMemo } from 'react';
import type { Notification } from '../../../../src/shared/notification';
import { NotificationArea } from '../../../../renderer/src/player/notification-area';
import { NotificationQueue } from '../../../../renderer/src/player/notification-queue';

/** Long enough that the preview never leaves while the operator composes. */
const PREVIEW_SECONDS = 86_400;
const ASPECT = 16 / 9;

export interface BannerDraft {
  title: string;
  message: string;
  icon: string;
}

/**
 * The banner as screens draw it: the player's own notification area, fed one notification, in
 * a 16:9 "screen" scaled to the frame. The player sizes the banner in viewport units, so the
 * screen is drawn as tall as this window's viewport (where those units agree with it) and then
 * scaled down; the card keeps one key, so typing changes it without replaying its entrance.
 */
export default function BannerPreview({ draft }: { draft: BannerDraft }) {
  const { ref, width } = useElementSize();
  const viewport = useViewportSize();
  const queue = useMemo(() => {
    const next = new NotificationQueue();
    const notification: Notification = {
      id: 'preview',
      channel_id: 'preview',
      title: draft.title || null,
      message: draft.message || null,
      icon: draft.icon || null,
      duration: PREVIEW_SECONDS,
      sound_url: null,
      created_at: new Date(0).toISOString(),
    };
    if (notification.title || notification.message) next.push(notification);
    return next;
  }, [draft.title, draft.message, draft.icon]);
  useEffect(() => {
    queue.resume();
    return () => queue.pause();
  }, [queue]);
  const screenHeight = viewport.height || 800;
  const scale = width ? width / (screenHeight * ASPECT) : 0;
  const empty = !draft.title && !draft.message;
  return (
    <figure className="banner-preview" aria-label="Preview of the banner on a screen">
      <Box
        ref={ref}
        className="banner-preview-frame"
        style={{ aspectRatio: `${ASPECT}` }}
        data-testid="banner-preview"
        // The player's live region would read out every keystroke: the fields say the same.
        aria-hidden
      >
        {scale > 0 && (
          <div
            className="banner-preview-screen"
            style={{ width: screenHeight * ASPECT, height: screenHeight, transform: `scale(${scale})` }}
          >
            <NotificationArea queue={queue} />
          </div>
        )}
        {empty && (
          <Text className="banner-preview-empty" size="sm">
            Type a title and a message to see the banner.
          </Text>
        )}
      </Box>
      <Text component="figcaption" size="xs" c="dimmed" mt={4}>
        As a 16:9 screen shows it, at the bottom, over whatever plays.
      </Text>
    </figure>
  );
}
