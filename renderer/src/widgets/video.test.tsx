import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { framed, listsProps } from './testing/lists-frame';
import { VideoWidget } from './video';

const MP4 = 'https://media.example.com/loop.mp4';
const WEBM = 'https://media.example.com/loop.webm';
const POSTER = 'https://media.example.com/poster.png';
const LOCAL_WEBM = '/__cache__/loop.webm';
const LOCAL_POSTER =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** Only the webm and the poster are cached. */
const cached = (url: string) => ({ [WEBM]: LOCAL_WEBM, [POSTER]: LOCAL_POSTER })[url];

describe('video widget', () => {
  it('plays the first cached source, muted and looping, with the cached poster', async () => {
    const screen = await render(
      <VideoWidget {...listsProps<'video'>({ mp4: MP4, webm: WEBM, poster: POSTER }, { media: cached })} />,
    );
    // Read before the fake file fails to load and the placeholder takes its place.
    const video = screen.container.querySelector('video')!;
    expect(video.getAttribute('src')).toBe(LOCAL_WEBM);
    expect(video.getAttribute('poster')).toBe(LOCAL_POSTER);
    expect(video.muted).toBe(true);
    expect(video.loop).toBe(true);
    expect(video.autoplay).toBe(true);
    expect(video.style.objectFit).toBe('contain');
    expect(screen.container.innerHTML).not.toContain('media.example.com');
  });

  it('plays with sound only when muted is false', async () => {
    const screen = await render(
      <VideoWidget {...listsProps<'video'>({ webm: WEBM, muted: false, mode: 'fill' }, { media: cached })} />,
    );
    const video = screen.container.querySelector('video')!;
    expect(video.muted).toBe(false);
    expect(video.style.objectFit).toBe('cover');
  });

  it('shows a placeholder when no source is cached, never the remote addresses', async () => {
    const screen = await render(
      <VideoWidget {...listsProps<'video'>({ mp4: MP4, poster: POSTER }, { media: cached })} />,
    );
    await expect.element(screen.getByRole('img', { name: 'Video not available yet' })).toBeVisible();
    expect(screen.container.querySelector('video')).toBeNull();
    expect(screen.container.innerHTML).not.toContain('media.example.com');
  });

  it('falls back to the placeholder when the cached file cannot play', async () => {
    const screen = await render(<VideoWidget {...listsProps<'video'>({ webm: WEBM }, { media: cached })} />);
    await expect.element(screen.getByRole('img', { name: 'Video not available yet' })).toBeVisible();
    expect(screen.container.innerHTML).not.toContain('media.example.com');
  });

  it('uses the cached source through the frame', async () => {
    const screen = await render(framed('video', { webm: WEBM, title: 'Loop' }, { media: cached }));
    await expect.element(screen.getByText('Loop')).toBeVisible();
    expect(screen.container.innerHTML).not.toContain('media.example.com');
  });

  it('shows the invalid face for data that does not fit', async () => {
    const screen = await render(framed('video', { poster: POSTER }));
    await expect.element(screen.getByText('Data does not fit this widget')).toBeVisible();
  });

  it('shows the empty face before any data', async () => {
    const screen = await render(framed('video', undefined));
    await expect.element(screen.getByText('No data yet')).toBeVisible();
  });
});
