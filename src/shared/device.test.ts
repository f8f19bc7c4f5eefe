import { describe, expect, it } from 'vitest';
import { deviceCreateSchema, deviceSchema, deviceUpdateSchema, heartbeatSchema } from './device';
import { sampleHeartbeat } from './testing/device-fixtures';

describe('devices', () => {
  it('creates with a tag, the rest defaulted', () => {
    expect(deviceCreateSchema.parse({ tag: 'lobby' })).toEqual({
      tag: 'lobby',
      name: '',
      description: '',
      playlist_id: null,
    });
    expect(deviceCreateSchema.safeParse({ name: 'no tag' }).error?.issues[0]?.path).toEqual(['tag']);
  });

  it('changes playlist, name and description, never the tag or online state', () => {
    expect(deviceUpdateSchema.parse({ playlist_id: null })).toEqual({ playlist_id: null });
    expect(deviceUpdateSchema.safeParse({ online: true }).success).toBe(false);
    expect(deviceUpdateSchema.safeParse({ tag: 'other' }).success).toBe(false);
  });

  it('describes a device with online as a boolean and last seen fields', () => {
    const device = {
      id: 'd1',
      tag: 'lobby',
      playlist_id: null,
      group_id: null,
      schedule: null,
      power: null,
      rotation: null,
      time_zone: null,
      name: 'Lobby',
      description: '',
      online: true,
      last_seen_date: '2026-11-21T07:00:00.000Z',
      last_seen_ip: '127.0.0.1',
    };
    expect(deviceSchema.parse(device)).toEqual(device);
    expect(deviceSchema.safeParse({ ...device, online: 'yes' }).success).toBe(false);
    expect(deviceSchema.safeParse({ ...device, last_seen_date: 'yesterday' }).success).toBe(false);
  });

  it('takes the group and settings of a screen, and still the bodies of clients that know none', () => {
    expect(deviceUpdateSchema.parse({ name: 'Lobby', playlist_id: null })).toEqual({
      name: 'Lobby',
      playlist_id: null,
    });
    expect(deviceCreateSchema.parse({ tag: 'lobby' })).toEqual({
      tag: 'lobby',
      name: '',
      description: '',
      playlist_id: null,
    });
    const settings = {
      group_id: 'grp_1',
      rotation: 90,
      time_zone: 'Europe/Paris',
      power: { off: [] },
      schedule: null,
    };
    expect(deviceUpdateSchema.parse(settings)).toEqual(settings);
    expect(deviceUpdateSchema.safeParse({ rotation: 45 }).success).toBe(false);
    expect(deviceUpdateSchema.safeParse({ time_zone: 'Nowhere/Land' }).success).toBe(false);
  });

  it('carries diagnostics in a heartbeat', () => {
    const heartbeat = heartbeatSchema.parse(sampleHeartbeat('board:b1'));
    expect(heartbeat.recoveries).toEqual([]);
    expect(heartbeatSchema.safeParse({ ...heartbeat, cpu_load: 140 }).success).toBe(false);
  });
});
