import { describe, expect, it, vi } from 'vitest';
import { renderHook } from 'vitest-browser-react';
import { queryClient, serve } from '../../testing/hook-kit';
import { useBackgroundOptions } from './board-settings';

const medium = (id: string, name: string, kind: 'image' | 'video') => ({
  id,
  name,
  content_type: kind === 'image' ? 'image/png' : 'video/mp4',
  kind,
  bytes: 1200,
  sha256: 'a'.repeat(64),
  url: `/media/${id}/content`,
  created_at: '2026-11-23T08:00:00.000Z',
  used_by: [],
});

async function options(current: string) {
  serve().on('GET', '/media', {
    status: 200,
    body: [medium('m1', 'sky.png', 'image'), medium('m2', 'intro.mp4', 'video')],
  });
  const { wrapper } = queryClient();
  const { result } = await renderHook(() => useBackgroundOptions(current), { wrapper });
  await vi.waitFor(() => expect(result.current.map((option) => option.label)).toContain('sky.png'));
  return result.current;
}

describe("a board's background choices", () => {
  it("offers none and the library's images, not its videos", async () => {
    expect(await options('')).toEqual([
      { value: '', label: 'None' },
      { value: '/media/m1/content', label: 'sky.png' },
    ]);
    expect(await options('/media/m1/content')).toHaveLength(2);
  });

  it("keeps the board's own background when it is not in the library, so it is not lost", async () => {
    expect(await options('https://example.com/wall.jpg')).toEqual([
      { value: '', label: 'None' },
      { value: '/media/m1/content', label: 'sky.png' },
      { value: 'https://example.com/wall.jpg', label: 'https://example.com/wall.jpg' },
    ]);
  });
});
