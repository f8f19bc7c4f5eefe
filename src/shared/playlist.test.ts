import { describe, expect, it } from 'vitest';
import { playlistCreateSchema, playlistItemSchema, playlistUpdateSchema } from './playlist';

describe('playlists', () => {
  it('orders board, image and video items with their durations and defaults', () => {
    const playlist = playlistCreateSchema.parse({
      name: 'Lobby loop',
      items: [
        { type: 'board', board_id: 'b1', duration: 30 },
        { type: 'image', url: 'https://example.com/a.png', duration: 10 },
        { type: 'video', url: 'https://example.com/v.mp4' },
      ],
    });
    expect(playlist.items).toEqual([
      { type: 'board', board_id: 'b1', channel_id: null, duration: 30 },
      { type: 'image', url: 'https://example.com/a.png', fit: 'fit', duration: 10 },
      { type: 'video', url: 'https://example.com/v.mp4', muted: true, duration: null },
    ]);
  });

  it('starts empty', () => {
    expect(playlistCreateSchema.parse({ name: 'Empty' }).items).toEqual([]);
  });

  it('refuses an item of an unknown type, a missing duration and a bad fit', () => {
    expect(
      playlistItemSchema.safeParse({ type: 'audio', url: 'https://x/a.mp3' }).error?.issues[0]?.message,
    ).toBe('must be an item of type "board", "image", "video" or "web"');
    expect(playlistItemSchema.safeParse({ type: 'board', board_id: 'b1' }).error?.issues[0]?.path).toEqual([
      'duration',
    ]);
    expect(
      playlistItemSchema.safeParse({ type: 'image', url: 'https://x/a.png', duration: 5, fit: 'tile' })
        .success,
    ).toBe(false);
    expect(playlistItemSchema.safeParse({ type: 'board', board_id: 'b1', duration: 0 }).success).toBe(false);
  });

  it('takes a web page over http or https, reloaded every 10 s to a day, or never', () => {
    const page = (fields: Record<string, unknown>) =>
      playlistItemSchema.safeParse({
        type: 'web',
        url: 'http://intranet.local/board',
        duration: 60,
        ...fields,
      });
    expect(page({}).data).toEqual({
      type: 'web',
      url: 'http://intranet.local/board',
      duration: 60,
      reload_seconds: null,
    });
    expect(page({ reload_seconds: 300 }).success).toBe(true);
    expect(page({ reload_seconds: 5 }).error?.issues[0]?.message).toBe('must be at least 10 seconds');
    expect(page({ url: 'ftp://files.local/' }).error?.issues[0]?.message).toBe(
      'must be an http or https URL',
    );
    expect(page({ duration: undefined }).error?.issues[0]?.path).toEqual(['duration']);
  });

  it('names the failing item by its index', () => {
    const result = playlistUpdateSchema.safeParse({
      items: [{ type: 'board', board_id: 'b', duration: 5 }, {}],
    });
    expect(result.error?.issues[0]?.path).toEqual(['items', 1, 'type']);
  });
});
