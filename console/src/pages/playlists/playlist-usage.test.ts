import { describe, expect, it } from 'vitest';
import { playlistUsage, usageLines } from './playlist-usage';

const entry = (playlist_id: string) => ({
  playlist_id,
  days: ['mon' as const],
  from: '08:00',
  to: '12:00',
  start_date: null,
  end_date: null,
  priority: 0,
});

describe('what deleting playlists takes them from', () => {
  it('names the screens and groups that play them and the schedules that name them', () => {
    const usage = playlistUsage(
      new Set(['p1', 'p2']),
      [
        { tag: 'lobby', name: 'Lobby', playlist_id: 'p1', schedule: null },
        {
          tag: 'hall',
          name: '',
          playlist_id: 'p3',
          schedule: { entries: [entry('p2')], default_playlist_id: null },
        },
        { tag: 'bar', name: 'Bar', playlist_id: null, schedule: null },
      ],
      [
        { name: 'Shops', playlist_id: 'p2', schedule: null },
        { name: 'Nights', playlist_id: null, schedule: { entries: [], default_playlist_id: 'p1' } },
      ],
    );
    expect(usage).toEqual({
      screens: ['Lobby'],
      groups: ['Shops'],
      schedules: ['screen hall', 'group Nights'],
    });
    expect(usageLines(usage)).toEqual([
      'Screens that play it, left with no playlist (1): Lobby',
      'Groups that play it, left with no playlist (1): Shops',
      'Schedules that name it, which lose those entries (2): screen hall, group Nights',
    ]);
    expect(usageLines(playlistUsage(new Set(['x']), [], []))).toEqual([]);
  });
});
