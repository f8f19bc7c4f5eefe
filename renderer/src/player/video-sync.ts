import {
  aroundLoop,
  playbackRateFor,
  SEEK_BEYOND_S,
  videoPositionAt,
} from '../../../src/shared/sync-timeline';
import type { SharedTime } from './shared-clock';

/** How often the position is compared with shared time. */
const EVERY_MS = 250;
/** Coming on screen this far off, the video is put in place at once. */
const PLACED_WITHIN_S = 0.05;
const SEEK_LEAD_S = 0.03;

/**
 * Keeps a playing video where the shared clock says it should be (docs/sync.md): its position
 * is how long its turn has run, looped over its length. An error under a second is closed by the
 * playback rate (at most 5% off, proportional to the error), so no frame is skipped or repeated
 * where people look; a larger one (a late start, a stall) by one seek. Returns how to stop.
 */
export function followSharedTime(video: HTMLVideoElement, clock: SharedTime, turnStart: number): () => void {
  // The first look, as the video comes on screen, puts it in place: nothing was seen to jump.
  let placed = false;
  const align = () => {
    const now = clock.now();
    const length = video.duration;
    if (
      now === null ||
      !Number.isFinite(length) ||
      length <= 0 ||
      video.readyState < HTMLMediaElement.HAVE_METADATA
    )
      return;
    const target = videoPositionAt(now - turnStart, length);
    const error = aroundLoop(target - video.currentTime, length);
    video.dataset.syncError = error.toFixed(4);
    if (Math.abs(error) > (placed ? SEEK_BEYOND_S : PLACED_WITHIN_S)) {
      placed = true;
      // A seek lands a little late (the decoder starts from a key frame): aim that much ahead.
      video.currentTime = Math.min(length, target + SEEK_LEAD_S);
      video.playbackRate = 1;
      return;
    }
    placed = true;
    const rate = playbackRateFor(error);
    if (video.playbackRate !== rate) video.playbackRate = rate;
  };
  align();
  const timer = setInterval(align, EVERY_MS);
  video.addEventListener('loadedmetadata', align);
  return () => {
    clearInterval(timer);
    video.removeEventListener('loadedmetadata', align);
    video.playbackRate = 1;
  };
}
