import { describe, expect, it, vi } from 'vitest';
import { renderHook } from 'vitest-browser-react';
import { BOARD_DEFAULTS } from '../../../../src/shared/board';
import { queryClient, serve } from '../../testing/hook-kit';
import { newBoardItem, newMediaItem, newWebItem } from './draft';
import { useItemLabels } from './item-labels';
import { sampleMedium } from '../../testing/fixtures';

const logo = sampleMedium();

const board = {
  ...BOARD_DEFAULTS,
  id: 'b1',
  name: 'Hall',
  created_at: '2026-11-23T08:00:00.000Z',
  updated_at: '2026-11-23T09:00:00.000Z',
};

const items = {
  board: newBoardItem('k1', 'b1'),
  gone: newBoardItem('k2', 'b9'),
  image: newMediaItem('k3', 'image', '/media/m1/content'),
  deleted: newMediaItem('k4', 'video', '/media/m9/content'),
  web: newWebItem('k5', { url: 'https://example.com/menu', duration: 20, reload_seconds: null }),
};

describe("a playlist's item labels", () => {
  it('names boards and library media by their names, anything else by what it shows', async () => {
    serve()
      .on('GET', '/boards', { status: 200, body: [board] })
      .on('GET', '/media', { status: 200, body: [logo] });
    const { wrapper } = queryClient();
    const { result } = await renderHook(() => useItemLabels(), { wrapper });
    await vi.waitFor(() => expect(result.current(items.image).title).toBe('logo.png'));
    expect(result.current(items.image).media?.id).toBe('m1');
    expect(result.current(items.board)).toEqual({ title: 'Hall' });
    expect(result.current(items.gone)).toEqual({ title: 'board b9' });
    expect(result.current(items.deleted)).toEqual({ title: '/media/m9/content' });
    expect(result.current(items.web)).toEqual({ title: 'https://example.com/menu' });
  });

  it('names every item by its id or address while the names cannot be read', async () => {
    serve();
    const { wrapper } = queryClient();
    const { result } = await renderHook(() => useItemLabels(), { wrapper });
    expect(result.current(items.board)).toEqual({ title: 'board b1' });
    expect(result.current(items.image)).toEqual({ title: '/media/m1/content' });
  });
});
