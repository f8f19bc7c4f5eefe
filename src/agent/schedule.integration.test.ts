import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { spawnService, type ServiceProcess } from '../../service/service-process';
import type { DeviceAgent } from './agent';
import { createNodeAgent } from './node-agent';
import { SkippableClock } from './testing/fakes';
import { boardAndPlaylist, nodeAgentOptions, serviceApi, type ServiceApi } from './testing/real-service';
import { freePort } from '../node/testing/free-ports';

// The schedule against the real service in its own process: the screen takes its resolved
// settings and every playlist they can play, then switches by itself, the service gone.

const ADMIN = 'schedule-integration-admin-token-01';
const MINUTE = 60_000;
let dir: string;
let port: number;
let service: ServiceProcess | null = null;
let agent: DeviceAgent | null = null;

const api: ServiceApi = (method, path, body) => serviceApi(port, ADMIN)(method, path, body);
const playlist = async (name: string) => (await boardAndPlaylist(api, name)).playlistId;

/** `HH:MM` of an instant in UTC. */
const hhmm = (at: number): string => new Date(at).toISOString().slice(11, 16);

/** The screen "lobby" on its own clock, in its system's zone `zone`. */
function startAgent(clock: SkippableClock, zone = 'Europe/Paris'): DeviceAgent {
  const { agent: started } = createNodeAgent(
    nodeAgentOptions({
      port,
      token: ADMIN,
      tag: 'lobby',
      name: 'Lobby',
      dataDir: join(dir, 'device'),
      heartbeatSeconds: 30,
      clock,
      systemTimeZone: () => zone,
    }),
  );
  agent = started;
  return started;
}

const wait = (timeout = 15_000) => ({ timeout, interval: 50 });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-schedule-'));
  port = await freePort();
  service = await spawnService(['--port', String(port), '--data', join(dir, 'service')], {
    WALLBOARD_ADMIN_TOKEN: ADMIN,
  });
});

afterEach(async () => {
  await agent?.stop();
  agent = null;
  await service?.stop('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

describe('the schedule against the real service', () => {
  it('holds every playlist of its settings and switches at the entry, then sleeps, with the service gone', async () => {
    const clock = new SkippableClock();
    const own = await playlist('own');
    const evening = await playlist('evening');
    // A window from 10 minutes on, then a power window after it, on every day, in UTC.
    const from = Math.ceil(clock.now() / MINUTE) * MINUTE + 10 * MINUTE;
    const days = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
    await api('POST', '/devices', {
      tag: 'lobby',
      name: 'Lobby',
      playlist_id: own,
      schedule: {
        entries: [{ days, from: hhmm(from), to: hhmm(from + 30 * MINUTE), playlist_id: evening }],
      },
      power: { off: [{ days, from: hhmm(from + 30 * MINUTE), to: hhmm(from + 40 * MINUTE) }] },
      rotation: 180,
      time_zone: 'UTC',
    });

    const started = startAgent(clock);
    await started.start();
    await vi.waitFor(() => expect(started.getState().online).toBe(true), wait());
    const state = started.getState();
    expect(state.settings).toMatchObject({ playlist_id: own, rotation: 180, time_zone: 'UTC' });
    expect(Object.keys(state.playlists ?? {}).sort()).toEqual([own, evening].sort());
    expect(Object.keys(state.boards)).toHaveLength(2);
    expect(state).toMatchObject({ playlist: { id: own }, display: { rotation: 180, off: false } });

    await service?.stop('SIGKILL');
    service = null;
    await vi.waitFor(() => expect(started.getState().online).toBe(false), wait());
    await clock.skip(from - clock.now() - 1000);
    expect(started.getState().playlist?.id).toBe(own);
    // Real time runs on between reading the clock and setting the timer: it may fire a few ms late.
    await clock.skip(1100);
    expect(started.getState()).toMatchObject({ online: false, playlist: { id: evening } });
    await clock.skip(30 * MINUTE);
    expect(started.getState()).toMatchObject({ playlist: { id: own }, display: { off: true } });
    await clock.skip(10 * MINUTE);
    expect(started.getState().display?.off).toBe(false);
  }, 60_000);

  it("reports its system's zone, which the service reads its schedule in, and follows a change of its settings", async () => {
    const own = await playlist('own');
    await api('POST', '/devices', { tag: 'lobby', name: 'Lobby', playlist_id: own });
    const started = startAgent(new SkippableClock(), 'Asia/Tokyo');
    await started.start();
    await vi.waitFor(() => expect(started.getState().online).toBe(true), wait());
    expect(started.getState().display).toEqual({ rotation: 0, off: false });
    await vi.waitFor(
      async () =>
        expect(await api('GET', '/devices/lobby/schedule/at')).toMatchObject({ time_zone: 'Asia/Tokyo' }),
      wait(),
    );

    await api('PATCH', '/devices/lobby', {
      rotation: 270,
      power: {
        off: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from: '00:00', to: '24:00' }],
      },
    });
    await vi.waitFor(() => expect(started.getState().display).toEqual({ rotation: 270, off: true }), wait());
  }, 60_000);
});
