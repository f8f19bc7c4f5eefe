import { describe, expect, it } from 'vitest';
import type { Device } from '../../../../src/shared/device';
import type { Group } from '../../../../src/shared/group';
import type { Playlist } from '../../../../src/shared/playlist';
import { scheduleSchema } from '../../../../src/shared/schedule';
import { usageLines, usageOf } from './usage';

const AT = '2026-11-24T08:00:00.000Z';
const playlist = (id: string, name: string, boards: string[]): Playlist => ({
  id,
  name,
  updated_at: AT,
  items: boards.map((board_id) => ({ type: 'board', board_id, channel_id: null, duration: 30 })),
});
const settings = { playlist_id: null, schedule: null, power: null, rotation: null, time_zone: null };
const group = (id: string, name: string, more: Partial<Group> = {}): Group => ({
  id,
  name,
  ...settings,
  created_at: AT,
  updated_at: AT,
  ...more,
});
const screen = (tag: string, more: Partial<Device> = {}): Device => ({
  id: `d-${tag}`,
  tag,
  ...settings,
  group_id: null,
  name: tag.toUpperCase(),
  description: '',
  online: true,
  last_seen_date: null,
  last_seen_ip: null,
  ...more,
});
const schedule = (playlistId: string) =>
  scheduleSchema.parse({ entries: [{ playlist_id: playlistId, days: ['mon'], from: '08:00', to: '12:00' }] });

const PLAYLISTS = [
  playlist('p1', 'Lobby loop', ['b1', 'b2']),
  playlist('p2', 'Sales floor', ['b2']),
  playlist('p3', 'Canteen', ['b3']),
];

describe('what uses the boards picked for deletion', () => {
  it('finds the playlists holding them, the schedules naming those, and the screens playing them', () => {
    const groups = [
      group('g1', 'Floor 3', { playlist_id: 'p2' }),
      group('g2', 'Mornings', { schedule: schedule('p1') }),
      group('g3', 'Canteen', { playlist_id: 'p3' }),
    ];
    const screens = [
      screen('hall', { playlist_id: 'p1' }),
      screen('desk', { group_id: 'g1' }),
      screen('bar', { group_id: 'g2' }),
      screen('kitchen', { group_id: 'g3' }),
      screen('door', { schedule: schedule('p2') }),
    ];
    const usage = usageOf(new Set(['b2']), PLAYLISTS, groups, screens);
    expect(usage).toEqual({
      playlists: ['Lobby loop', 'Sales floor'],
      schedules: ['group Mornings', 'screen DOOR'],
      screens: ['BAR', 'DESK', 'DOOR', 'HALL'],
    });
    expect(usageLines(usage)).toEqual([
      '2 playlists lose them: Lobby loop and Sales floor.',
      '2 schedules play those: group Mornings and screen DOOR.',
      '4 screens show them now or by schedule: BAR, DESK, DOOR and HALL.',
    ]);
  });

  it('says so when no playlist holds them', () => {
    const usage = usageOf(new Set(['b9']), PLAYLISTS, [], [screen('hall', { playlist_id: 'p1' })]);
    expect(usageLines(usage)).toEqual(['No playlist plays them: no screen shows them.']);
  });

  it('says a playlist no screen plays, and shortens long lists', () => {
    const many = Array.from({ length: 7 }, (_, n) => screen(`s${n + 1}`, { playlist_id: 'p3' }));
    expect(usageLines(usageOf(new Set(['b1']), PLAYLISTS, [], []))).toEqual([
      '1 playlist loses them: Lobby loop.',
      'No screen plays those playlists.',
    ]);
    expect(usageLines(usageOf(new Set(['b3']), PLAYLISTS, [], many)).at(-1)).toBe(
      '7 screens show them now or by schedule: S1, S2, S3, S4, S5 and 2 more.',
    );
  });
});
