import { describe, expect, it } from 'vitest';
import type { PowerSchedule, Schedule } from '../../src/shared/schedule';
import { screenSettingsSchema } from '../../src/shared/screen-settings';
import { playlistsPlayable, resolveScreenSettings, scheduledAt, type OwnSettings } from './screen-settings';
import { WEB_OPTIONS_FALLBACK } from '../../src/shared/web-content';

const NOT_SET: OwnSettings = {
  playlist_id: null,
  schedule: null,
  power: null,
  rotation: null,
  time_zone: null,
};

const schedule = (playlist: string, fallback: string | null = null): Schedule => ({
  entries: [
    {
      days: ['mon', 'tue'],
      from: '08:00',
      to: '18:00',
      playlist_id: playlist,
      start_date: null,
      end_date: null,
      priority: 0,
    },
  ],
  default_playlist_id: fallback,
});
const power: PowerSchedule = { off: [{ days: ['sun'], from: '00:00', to: '24:00' }] };

describe('resolveScreenSettings', () => {
  it('answers the defaults for a screen with nothing set and no group', () => {
    const settings = resolveScreenSettings(NOT_SET, null);
    expect(settings).toEqual({
      playlist_id: null,
      schedule: null,
      power: null,
      rotation: 0,
      time_zone: null,
      group_id: null,
      sources: {
        playlist_id: 'default',
        schedule: 'default',
        power: 'default',
        rotation: 'default',
        time_zone: 'default',
      },
      playlist_ids: [],
    });
    // The service adds its web options (service/domain/web-options.ts), the override in force,
    // the releases offered and the sync group (none from an older service) when it answers.
    expect(screenSettingsSchema.parse({ ...settings, web: WEB_OPTIONS_FALLBACK })).toEqual({
      ...settings,
      web: WEB_OPTIONS_FALLBACK,
      override: null,
      release: { shell: null, web: null },
      sync: null,
    });
  });

  it("takes each setting separately: the screen's own, else its group's, else the default", () => {
    const group = { id: 'grp_1', ...NOT_SET, playlist_id: 'pl_group', power, rotation: 90 as const };
    const screen = { ...NOT_SET, rotation: 270 as const, schedule: schedule('pl_day') };
    expect(resolveScreenSettings(screen, group)).toEqual({
      playlist_id: 'pl_group',
      schedule: schedule('pl_day'),
      power,
      rotation: 270,
      time_zone: null,
      group_id: 'grp_1',
      sources: {
        playlist_id: 'group',
        schedule: 'screen',
        power: 'group',
        rotation: 'screen',
        time_zone: 'default',
      },
      playlist_ids: ['pl_day', 'pl_group'],
    });
  });

  it("lets a screen's zero rotation and own zone win over its group's", () => {
    const group = { id: 'grp_1', ...NOT_SET, rotation: 180 as const, time_zone: 'Asia/Tokyo' };
    const settings = resolveScreenSettings({ ...NOT_SET, rotation: 0, time_zone: 'Europe/Paris' }, group);
    expect(settings).toMatchObject({ rotation: 0, time_zone: 'Europe/Paris' });
    expect(settings.sources).toMatchObject({ rotation: 'screen', time_zone: 'screen' });
  });

  it("falls back to the group's setting once the screen's is unset (null), never to a mix", () => {
    const group = { id: 'grp_1', ...NOT_SET, schedule: schedule('pl_group_day') };
    const settings = resolveScreenSettings({ ...NOT_SET, playlist_id: 'pl_own' }, group);
    expect(settings.schedule).toEqual(schedule('pl_group_day'));
    expect(settings.sources.schedule).toBe('group');
    expect(settings.playlist_ids).toEqual(['pl_group_day', 'pl_own']);
  });
});

describe('playlistsPlayable', () => {
  it("lists the schedule's entries and default once each, sorted", () => {
    const twice: Schedule = {
      ...schedule('pl_b', 'pl_a'),
      entries: [...schedule('pl_b').entries, ...schedule('pl_b').entries],
    };
    expect(playlistsPlayable(twice, null)).toEqual(['pl_a', 'pl_b']);
  });

  it("leaves out the screen's playlist when the schedule's default always stands in for it", () => {
    expect(playlistsPlayable(schedule('pl_day', 'pl_night'), 'pl_own')).toEqual(['pl_day', 'pl_night']);
    expect(playlistsPlayable(schedule('pl_day'), 'pl_own')).toEqual(['pl_day', 'pl_own']);
    expect(playlistsPlayable(null, 'pl_own')).toEqual(['pl_own']);
    expect(playlistsPlayable(null, null)).toEqual([]);
  });
});

describe('scheduledAt', () => {
  const settings = resolveScreenSettings(
    { ...NOT_SET, playlist_id: 'pl_own', schedule: schedule('pl_day'), power },
    null,
  );
  // Monday 23 November 2026.
  const mondayAt = (time: string) => Date.parse(`2026-11-23T${time}Z`);

  it('reads the schedule in the set zone, else the reported one, else UTC', () => {
    // 07:30 UTC is 08:30 in Paris (an entry), 07:30 in UTC and 16:30 in Tokyo (none).
    const paris = resolveScreenSettings(
      { ...NOT_SET, schedule: schedule('pl_day'), time_zone: 'Europe/Paris' },
      null,
    );
    expect(scheduledAt(paris, 'Asia/Tokyo', mondayAt('07:30:00'))).toMatchObject({
      time_zone: 'Europe/Paris',
      playlist_id: 'pl_day',
      reason: 'entry',
      entry_index: 0,
    });
    expect(scheduledAt(settings, 'Asia/Tokyo', mondayAt('07:30:00'))).toMatchObject({
      time_zone: 'Asia/Tokyo',
      playlist_id: 'pl_day',
    });
    expect(scheduledAt(settings, null, mondayAt('07:30:00'))).toEqual({
      time: '2026-11-23T07:30:00.000Z',
      time_zone: 'UTC',
      playlist_id: 'pl_own',
      reason: 'playlist',
      entry_index: null,
      off: false,
    });
  });

  it('says when a power window has the screen off', () => {
    expect(scheduledAt(settings, null, Date.parse('2026-11-29T12:00:00Z')).off).toBe(true);
    expect(scheduledAt(settings, null, Date.parse('2026-11-30T00:00:00Z')).off).toBe(false);
  });
});
