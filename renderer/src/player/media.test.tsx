import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  board,
  browserWait,
  image,
  makeBoard,
  makeState,
  onScreen,
  pngDataUrl,
  prepared,
  renderPlayer,
  video,
} from './player-test-kit';

// Media items on real time: decoding and playing are the browser's own, so the durations are
// short and every check waits for what it expects rather than for a fixed time.

const IMAGE_FIT = 'https://cdn.example.com/fit.png';
const IMAGE_COVER = 'https://cdn.example.com/cover.png';
const CLIP = 'https://cdn.example.com/clip.webm';
const BROKEN = 'https://cdn.example.com/broken.webm';
const boards = { a: makeBoard('Board A'), b: makeBoard('Board B') };

/**
 * A WebM of `frames` frames (30 ms each) recorded from a canvas: a real video with nothing to
 * fetch. A recorder takes frames at the pace they are painted, so this takes that long; it ends
 * on the recorder's own stop event, not on a guess of time.
 */
async function recordClip(frames: number): Promise<string> {
  const canvas = document.createElement('canvas');
  canvas.width = 64;
  canvas.height = 36;
  const context = canvas.getContext('2d')!;
  const recorder = new MediaRecorder(canvas.captureStream(30), { mimeType: 'video/webm' });
  const chunks: Blob[] = [];
  recorder.ondataavailable = (event) => chunks.push(event.data);
  const stopped = new Promise((resolve) => (recorder.onstop = resolve));
  recorder.start();
  let frame = 0;
  const painter = setInterval(() => {
    context.fillStyle = frame++ % 2 ? '#c33' : '#33c';
    context.fillRect(0, 0, canvas.width, canvas.height);
    if (frame < frames) return;
    clearInterval(painter);
    recorder.stop();
  }, 30);
  await stopped;
  return URL.createObjectURL(new Blob(chunks, { type: 'video/webm' }));
}

let clip: string;
beforeAll(async () => {
  clip = await recordClip(20);
});

const currentElement = (selector: string) =>
  document.querySelector<HTMLElement>(`[data-testid="player-current"] ${selector}`);

describe('player: images and videos', () => {
  it('shows images decoded, whole for fit and filling the screen for cover', async () => {
    const media = { [IMAGE_FIT]: pngDataUrl('#2a6'), [IMAGE_COVER]: pngDataUrl('#a62') };
    const { bridge } = await renderPlayer(
      makeState([image(IMAGE_FIT, 1), image(IMAGE_COVER, 1, { fit: 'cover' })], { media }),
    );
    await vi.waitFor(() => expect(onScreen()).toBe(`image:${IMAGE_FIT}`), browserWait);
    const fit = currentElement('img') as HTMLImageElement;
    expect(fit.complete).toBe(true);
    expect(fit.naturalWidth).toBe(64);
    expect(getComputedStyle(fit).objectFit).toBe('contain');
    expect(fit.getAttribute('src')).toBe(media[IMAGE_FIT]);
    await vi.waitFor(() => expect(onScreen()).toBe(`image:${IMAGE_COVER}`), browserWait);
    expect(getComputedStyle(currentElement('img') as Element).objectFit).toBe('cover');
    await vi.waitFor(() => expect(onScreen()).toBe(`image:${IMAGE_FIT}`), browserWait);
    expect(bridge.reports.slice(0, 3)).toEqual([
      `image:${IMAGE_FIT}`,
      `image:${IMAGE_COVER}`,
      `image:${IMAGE_FIT}`,
    ]);
  });

  it('skips an image that cannot be decoded', async () => {
    const media = { [IMAGE_FIT]: 'data:image/png;base64,bm90IGFuIGltYWdl' };
    const { bridge } = await renderPlayer(
      makeState([board('a', 1), image(IMAGE_FIT, 1), board('b', 1)], { boards, media }),
    );
    await vi.waitFor(() => expect(onScreen()).toBe('board:b'), browserWait);
    expect(bridge.reports).toEqual(['board:a', 'board:b']);
    expect(bridge.logText()).toContain(`skipped image:${IMAGE_FIT}: the image could not be decoded`);
    // Told to the agent too, for the heartbeats.
    expect(bridge.failures).toEqual([
      { item: `image:${IMAGE_FIT}`, reason: expect.stringContaining('the image could not be decoded') },
    ]);
  });

  it('plays a video muted, to its end, prepared without playing before its turn', async () => {
    const { bridge } = await renderPlayer(
      makeState([board('a', 1), video(CLIP), board('b', 1)], { boards, media: { [CLIP]: clip } }),
    );
    await vi.waitFor(
      () => expect(prepared()?.getAttribute('data-showing')).toBe(`video:${CLIP}`),
      browserWait,
    );
    const element = prepared()?.querySelector('video') as HTMLVideoElement;
    expect(element.paused).toBe(true);
    expect(element.autoplay).toBe(false);

    await vi.waitFor(() => expect(onScreen()).toBe(`video:${CLIP}`), browserWait);
    expect(currentElement('video')).toBe(element);
    expect(element.muted).toBe(true);
    expect(element.loop).toBe(false);
    await vi.waitFor(
      () => expect(!element.paused || element.ended, 'the video playing').toBe(true),
      browserWait,
    );

    await vi.waitFor(() => expect(onScreen()).toBe('board:b'), browserWait);
    // Shown to its end: the board came only once the video had ended.
    expect(element.ended).toBe(true);
    expect(bridge.reports).toEqual(['board:a', `video:${CLIP}`, 'board:b']);
  });

  it('plays a video with sound when told, looping for its duration', async () => {
    await renderPlayer(
      makeState([video(CLIP, { muted: false, duration: 2 }), board('a', 1)], {
        boards,
        media: { [CLIP]: clip },
      }),
    );
    await vi.waitFor(() => expect(onScreen()).toBe(`video:${CLIP}`), browserWait);
    const element = currentElement('video') as HTMLVideoElement;
    expect(element.muted).toBe(false);
    expect(element.loop).toBe(true);
    await vi.waitFor(() => expect(onScreen()).toBe('board:a'), { ...browserWait, timeout: 6000 });
  });

  it('skips a video that cannot be loaded', async () => {
    const media = { [BROKEN]: 'data:video/webm;base64,AAAA' };
    const { bridge } = await renderPlayer(
      makeState([board('a', 1), video(BROKEN), board('b', 1)], { boards, media }),
    );
    await vi.waitFor(() => expect(onScreen()).toBe('board:b'), browserWait);
    expect(bridge.reports).toEqual(['board:a', 'board:b']);
    expect(bridge.logText()).toContain(`skipped video:${BROKEN}: the video could not be loaded`);
    expect(bridge.failures).toEqual([
      { item: `video:${BROKEN}`, reason: expect.stringMatching(/^the video could not be loaded: \w/) },
    ]);
  });

  it('plays a single video again at its end', async () => {
    await renderPlayer(makeState([video(CLIP)], { media: { [CLIP]: clip } }));
    await vi.waitFor(() => expect(onScreen()).toBe(`video:${CLIP}`), browserWait);
    const element = currentElement('video') as HTMLVideoElement;
    let ends = 0;
    element.addEventListener('ended', () => ends++);
    await vi.waitFor(
      () => expect(ends >= 1 && !element.paused, 'the video played again').toBe(true),
      browserWait,
    );
    expect(currentElement('video')).toBe(element);
  });
});
