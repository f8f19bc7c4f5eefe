import { useEffect, useRef } from 'react';
import type { ItemView } from './resolve-item';
import type { SharedTime } from './shared-clock';
import { followSharedTime } from './video-sync';

type ImageView = Extract<ItemView, { kind: 'image' }>;
type VideoView = Extract<ItemView, { kind: 'video' }>;

/** MediaError's codes in words: the reason goes to the status an operator reads. */
const MEDIA_ERRORS: Record<number, string> = {
  1: 'loading was aborted',
  2: 'a network error',
  3: 'it could not be decoded',
  4: 'its format or source is not supported',
};

/** Why a video element failed, from its MediaError (with the browser's own detail when it gives one). */
function videoError(video: HTMLVideoElement): string {
  const error = video.error;
  if (!error) return 'the video could not be loaded';
  const detail = error.message ? ` (${error.message})` : '';
  return `the video could not be loaded: ${MEDIA_ERRORS[error.code] ?? `error ${error.code}`}${detail}`;
}

/** Ready once decoded, so the switch never shows an image drawn halfway. */
export function ImageItem({
  view,
  onReady,
  onFailed,
}: {
  view: ImageView;
  onReady: () => void;
  onFailed: (reason: string) => void;
}) {
  const ref = useRef<HTMLImageElement>(null);

  useEffect(() => {
    const image = ref.current;
    if (!image) return;
    let live = true;
    image.decode().then(
      () => {
        if (live) onReady();
      },
      (error: unknown) => {
        if (live) onFailed(`the image could not be decoded (${String(error)})`);
      },
    );
    return () => {
      live = false;
    };
  }, [view.src, onReady, onFailed]);

  return (
    <img
      ref={ref}
      className="player-media"
      src={view.src}
      alt=""
      decoding="async"
      data-fit={view.fit}
      style={{ objectFit: view.fit === 'cover' ? 'cover' : 'contain' }}
    />
  );
}

interface VideoItemProps {
  view: VideoView;
  /** On screen: it plays. Prepared behind the current item, it only buffers. */
  active: boolean;
  onReady: () => void;
  onFailed: (reason: string) => void;
  /** True asks for the video to play again from the start. */
  onEnded: () => boolean;
  onTimeLeft: (seconds: number) => void;
  onWarn: (message: string) => void;
  /** In a sync group: the shared clock and when this turn began on it; the video's position follows. */
  sync?: { clock: SharedTime; turnStart: number } | null;
}

/**
 * A video ready once it can play, started when it comes on screen. With a duration it loops for
 * that long; without one it plays to its end. Silent unless the item says otherwise; a sound
 * the browser refuses to start is given up rather than the video.
 */
export function VideoItem({
  view,
  active,
  onReady,
  onFailed,
  onEnded,
  onTimeLeft,
  onWarn,
  sync = null,
}: VideoItemProps) {
  const ref = useRef<HTMLVideoElement>(null);
  const clock = sync?.clock ?? null;
  const turnStart = sync?.turnStart ?? null;

  useEffect(() => {
    const video = ref.current;
    if (!video || !active || !clock || turnStart === null) return;
    return followSharedTime(video, clock, turnStart);
  }, [active, clock, turnStart]);

  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    if (video.readyState >= HTMLMediaElement.HAVE_FUTURE_DATA) onReady();
  }, [onReady]);

  useEffect(() => {
    const video = ref.current;
    if (!video || !active) return;
    // React sets `muted` as a property only; set it here too, before asking to play.
    video.muted = view.muted;
    video
      .play()
      .catch((error: unknown) => {
        if (video.muted || !(error instanceof DOMException) || error.name !== 'NotAllowedError') throw error;
        onWarn(`the browser refused the sound of video ${view.url}; playing it muted`);
        video.muted = true;
        return video.play();
      })
      .catch((error: unknown) => {
        // Pausing or unmounting interrupts play(): that is no failure of the video.
        if (error instanceof DOMException && error.name === 'AbortError') return;
        onFailed(`the video could not play (${String(error)})`);
      });
    return () => video.pause();
  }, [active, view.muted, view.url, view.src, onFailed, onWarn]);

  return (
    <video
      ref={ref}
      className="player-media"
      src={view.src}
      muted={view.muted}
      loop={view.duration !== null}
      preload="auto"
      playsInline
      disablePictureInPicture
      onCanPlay={onReady}
      onError={(event) => onFailed(videoError(event.currentTarget))}
      onPlaying={(event) => {
        const video = event.currentTarget;
        if (active) onTimeLeft(video.duration - video.currentTime);
      }}
      onEnded={(event) => {
        const video = event.currentTarget;
        if (!onEnded()) return;
        video.currentTime = 0;
        video.play().catch((error: unknown) => onFailed(`the video could not play again (${String(error)})`));
      }}
    />
  );
}
