import '../../../../renderer/src/player/player.css';
import './banner-preview.css';
import { Box, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useEffect, useMemo } from 'react';
import type { Notification } from '../../../../src/shared/notification';
import { NotificationArea } from '../../../../renderer/src/player/notification-area';
import { NotificationQueue } from '../../../../renderer/src/player/notification-queue';

/** Long enough that the preview never leaves while the operator composes. */
const PREVIEW_SECONDS = 86_400;
/** The screen drawn, in CSS pixels: a 1080p panel, then scaled to the frame. */
const SCREEN = { width: 1920, height: 1080 };

export interface BannerDraft {
  title: string;
  message: string;
  icon: string;
}

/**
 * The banner as screens draw it: the player's own notification area, fed one notification, on a
 * 16:9 "screen" scaled to the frame. The player sizes and places the banner in container units
 * of the screen's stage (renderer/src/screen/stage.css); the preview's screen is such a container
 * too, so the banner takes the same share of it as on a panel. The card keeps one key, so typing
 * changes it without replaying its entrance. `reach` says which screens will show it.
 */
export default function BannerPreview({ draft, reach }: { draft: BannerDraft; reach: string }) {
  const { ref, width } = useElementSize();
  const queue = useMemo(() => {
    const next = new NotificationQueue();
    const notification: Notification = {
      id: 'preview',
      channel_id: null,
      target: { all: true },
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
  const scale = width ? width / SCREEN.width : 0;
  const empty = !draft.title && !draft.message;
  return (
    <figure className="banner-preview" aria-label="Preview of the banner on a screen">
      <Box
        ref={ref}
        className="banner-preview-frame"
        style={{ aspectRatio: `${SCREEN.width} / ${SCREEN.height}` }}
        data-testid="banner-preview"
        // The player's live region would read out every keystroke: the fields say the same.
        aria-hidden
      >
        {scale > 0 && (
          <div
            className="banner-preview-screen"
            style={{ width: SCREEN.width, height: SCREEN.height, transform: `scale(${scale})` }}
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
      <Text component="figcaption" size="xs" c="dimmed" mt={4} data-testid="banner-preview-reach">
        As a 16:9 screen shows it, at the bottom, over whatever plays: on {reach}.
      </Text>
    </figure>
  );
}
