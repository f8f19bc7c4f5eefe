import { beforeEach, describe, expect, it } from 'vitest';
import type { Command } from '../shared/command';
import type { Heartbeat } from '../shared/device';
import type { PlayReport } from '../shared/play';
import type { PowerSchedule, Schedule, ScheduleEntry } from '../shared/schedule';
import { emptyState } from './player-state';
import { DeviceAgent } from './agent';
import type { DeviceControls, PowerMethod } from './commands';
import { RECHECK_MS, SchedulePlayer } from './schedule-player';
import { FakeService, ownSettings, sampleBoard, samplePlaylist } from './testing/fake-service';
import { agentDeps, FakeClock, FakeSocket, lobbyConfig, MemoryStore, recordingLogger } from './testing/fakes';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let clock: FakeClock;
let service: FakeService;
let store: MemoryStore;
let socket: FakeSocket;
let log: ReturnType<typeof recordingLogger>;
let display: string[];
let controls: Partial<DeviceControls>;

function makeAgent(): DeviceAgent {
  const agent = new DeviceAgent(
    agentDeps({
      fetch: service.fetch,
      connectRealtime: () => socket,
      clock,
      store,
      log,
      // The machine's own zone: the settings below name none unless a test says so.
      systemTimeZone: () => 'Europe/Paris',
    }),
    lobbyConfig,
  );
  agent.useControls(controls);
  return agent;
}

function entry(playlist_id: string, days: ScheduleEntry['days'], from: string, to: string): ScheduleEntry {
  return { playlist_id, days, from, to, start_date: null, end_date: null, priority: 0 };
}

const WEEKDAYS: ScheduleEntry['days'] = ['mon', 'tue', 'wed', 'thu', 'fri'];
const EVERY_DAY: ScheduleEntry['days'] = [...WEEKDAYS, 'sat', 'sun'];

/** The device "lobby": p1 its own playlist, p2 (and p3) what its schedule switches to; synced at `at`. */
async function startScheduled(
  at: string,
  schedule: Schedule | null,
  power: PowerSchedule | null = null,
): Promise<DeviceAgent> {
  clock.current = Date.parse(at);
  const device = service.addDevice('lobby', 'p1');
  for (const id of ['p1', 'p2', 'p3']) {
    service.playlists.set(id, samplePlaylist(id, [`b_${id}`]));
    service.exports.set(`b_${id}`, sampleBoard(`Board ${id}`, `flow_${id}`, 1));
  }
  service.settings.set('lobby', {
    ...ownSettings(device),
    schedule,
    power,
    rotation: 90,
    playlist_ids: ['p1', 'p2', 'p3'],
  });
  const agent = makeAgent();
  await agent.start();
  socket.fire('connect');
  await clock.advance(0);
  return agent;
}

/** Moves the clock to an instant (ISO), running every timer on the way. */
async function advanceTo(at: string): Promise<void> {
  await clock.advance(Date.parse(at) - clock.now());
}

const playing = (agent: DeviceAgent): string | null => agent.getState().playlist?.id ?? null;

function lastBeat(): Heartbeat {
  const beats = service.calls.filter((c) => c.path === '/devices/lobby/heartbeat');
  return beats[beats.length - 1]?.body as Heartbeat;
}

function play(at: number): PlayReport {
  return {
    type: 'board',
    board_id: 'b_p1',
    url: null,
    channel_id: 'ch_default',
    started_at: new Date(at - 10_000).toISOString(),
    ended_at: new Date(at).toISOString(),
  };
}

function wakeCommand(id: string): Command {
  const now = new Date(clock.now()).toISOString();
  return {
    id,
    device_tag: 'lobby',
    type: 'wake',
    status: 'queued',
    reason: null,
    created_at: now,
    updated_at: now,
    expires_at: new Date(clock.now() + HOUR).toISOString(),
  };
}

beforeEach(() => {
  clock = new FakeClock();
  service = new FakeService(() => clock.now());
  store = new MemoryStore();
  socket = new FakeSocket(() => ({ resync: true, events: [], last_event_id: 10 }));
  log = recordingLogger();
  display = [];
  controls = {
    sleepDisplay: async (): Promise<PowerMethod> => {
      display.push('sleep');
      return 'dpms';
    },
    wakeDisplay: async () => void display.push('wake'),
  };
});

describe('the schedule, played by the device', () => {
  it("switches playlists at the entry's minute in the screen's zone, and back at its end", async () => {
    // Monday 23 November 2026, 17:59 in Paris (UTC+1).
    const agent = await startScheduled('2026-11-23T16:59:00Z', {
      entries: [entry('p2', WEEKDAYS, '18:00', '22:00')],
      default_playlist_id: null,
    });
    expect(agent.getState()).toMatchObject({ playlist: { id: 'p1' }, display: { rotation: 90, off: false } });
    expect(Object.keys(agent.getState().playlists ?? {}).sort()).toEqual(['p1', 'p2', 'p3']);
    expect(Object.keys(agent.getState().boards).sort()).toEqual(['b_p1', 'b_p2', 'b_p3']);

    await clock.advance(MINUTE - 1);
    expect(playing(agent)).toBe('p1');
    await clock.advance(1);
    expect(playing(agent)).toBe('p2');
    await advanceTo('2026-11-23T20:59:59.999Z');
    expect(playing(agent)).toBe('p2');
    await clock.advance(1);
    expect(playing(agent)).toBe('p1');
    expect(lastBeat()).toMatchObject({ time_zone: 'Europe/Paris', power: { off: false, method: null } });
    await agent.stop();
  });

  it("reads the schedule in the settings' zone over the system's", async () => {
    const agent = await startScheduled('2026-11-23T17:30:00Z', {
      entries: [entry('p2', WEEKDAYS, '18:00', '22:00')],
      default_playlist_id: null,
    });
    expect(playing(agent)).toBe('p2');
    const settings = service.settings.get('lobby');
    if (settings) service.settings.set('lobby', { ...settings, time_zone: 'America/New_York' });
    socket.push({ id: 11, type: 'device.changed', device_tag: 'lobby' });
    await clock.advance(1000);
    // 12:30 in New York.
    expect(playing(agent)).toBe('p1');
    await clock.advance(30_000);
    expect(lastBeat().time_zone).toBe('America/New_York');
    await agent.stop();
  });

  it('plays across midnight with the service down, without asking it anything', async () => {
    // Saturday 28 November, 21:59 in Paris; the entry runs 22:00 to 06:00 into Sunday.
    const agent = await startScheduled('2026-11-28T20:59:00Z', {
      entries: [entry('p2', ['sat'], '22:00', '06:00')],
      default_playlist_id: 'p3',
    });
    expect(playing(agent)).toBe('p3');
    service.down = true;
    socket.fire('disconnect', 'transport close');
    const fetches = service.count('GET', '/playlists');

    await clock.advance(MINUTE);
    expect(agent.getState()).toMatchObject({ online: false, playlist: { id: 'p2' } });
    await advanceTo('2026-11-29T04:59:59.999Z');
    expect(playing(agent)).toBe('p2');
    await clock.advance(1);
    expect(playing(agent)).toBe('p3');
    expect(service.count('GET', '/playlists')).toBe(fetches);
    await agent.stop();
  });

  it("follows a daylight-saving day in the agent's own zone (Europe/Paris)", async () => {
    // Sunday 29 March 2026: at 02:00 the clocks in Paris jump to 03:00 (01:00 UTC).
    const agent = await startScheduled('2026-03-29T00:30:00Z', {
      entries: [entry('p2', EVERY_DAY, '02:30', '04:00'), entry('p3', EVERY_DAY, '08:00', '09:00')],
      default_playlist_id: null,
    });
    expect(playing(agent)).toBe('p1');
    // 02:30 never happens: the entry starts when the clock jumps past it.
    await advanceTo('2026-03-29T00:59:59.999Z');
    expect(playing(agent)).toBe('p1');
    await clock.advance(1);
    expect(playing(agent)).toBe('p2');
    // 04:00 summer time is 02:00 UTC, 08:00 is 06:00 UTC.
    await advanceTo('2026-03-29T01:59:59.999Z');
    expect(playing(agent)).toBe('p2');
    await clock.advance(1);
    expect(playing(agent)).toBe('p1');
    await advanceTo('2026-03-29T06:00:00Z');
    expect(playing(agent)).toBe('p3');
    await agent.stop();
  });

  it('keeps switching after a restart with the service unreachable, from the saved state', async () => {
    const first = await startScheduled('2026-11-23T16:00:00Z', {
      entries: [entry('p2', WEEKDAYS, '18:00', '22:00')],
      default_playlist_id: null,
    });
    await first.stop();

    service.down = true;
    socket = new FakeSocket(() => ({ resync: true, events: [], last_event_id: 10 }));
    const second = makeAgent();
    await second.start();
    expect(second.getState()).toMatchObject({ stale: true, playlist: { id: 'p1' } });
    await advanceTo('2026-11-23T17:00:00Z');
    expect(second.getState()).toMatchObject({ stale: true, playlist: { id: 'p2' } });
    expect(second.getState().boards.b_p2?.name).toBe('Board p2');
    await second.stop();
  });

  it("plays the device's own playlist, unscheduled, with an older service (no settings route)", async () => {
    service.settingsRoute = false;
    const agent = await startScheduled('2026-11-23T17:30:00Z', null);
    expect(agent.getState()).toMatchObject({ playlist: { id: 'p1' }, settings: null, playlists: { p1: {} } });
    expect(agent.getState().display).toBeUndefined();
    expect(Object.keys(agent.getState().boards)).toEqual(['b_p1']);
    await agent.stop();
  });
});

describe('power windows', () => {
  const power: PowerSchedule = { off: [{ days: WEEKDAYS, from: '20:00', to: '07:00' }] };

  it('puts the display to sleep in a power window, refuses plays, and wakes it at its end', async () => {
    // Monday 19:59 in Paris.
    const agent = await startScheduled('2026-11-23T18:59:00Z', null, power);
    expect(agent.getState().display).toEqual({ rotation: 90, off: false });
    agent.reportShowing({ showing: 'board:b_p1' });

    await clock.advance(MINUTE);
    expect(agent.getState().display).toEqual({ rotation: 90, off: true });
    expect(display).toEqual(['sleep']);
    await clock.advance(30_000);
    expect(lastBeat()).toMatchObject({
      showing: 'off',
      time_zone: 'Europe/Paris',
      power: { off: true, method: 'dpms' },
    });

    agent.reportPlay(play(clock.now()));
    await clock.advance(60_000);
    expect(service.count('POST', '/devices/lobby/plays')).toBe(0);

    // Tuesday 07:00 in Paris.
    await advanceTo('2026-11-24T06:00:00Z');
    expect(agent.getState().display).toEqual({ rotation: 90, off: false });
    expect(display).toEqual(['sleep', 'wake']);
    agent.reportPlay(play(clock.now()));
    await clock.advance(60_000);
    expect(service.count('POST', '/devices/lobby/plays')).toBe(1);
    await agent.stop();
  });

  it('wakes on a wake command until the window ends, then sleeps at the next one', async () => {
    const agent = await startScheduled('2026-11-23T22:00:00Z', null, power);
    expect(agent.getState().display?.off).toBe(true);
    expect(display).toEqual(['sleep']);

    socket.push({ id: 11, type: 'command.created', command: wakeCommand('cmd_wake') });
    await clock.advance(0);
    expect(agent.getState().display?.off).toBe(false);
    expect(display).toEqual(['sleep', 'wake']);

    await advanceTo('2026-11-24T05:59:59.999Z');
    expect(agent.getState().display?.off).toBe(false);
    await clock.advance(1);
    expect(display).toEqual(['sleep', 'wake']);
    // Tuesday 20:00 in Paris: the next window.
    await advanceTo('2026-11-24T19:00:00Z');
    expect(agent.getState().display?.off).toBe(true);
    expect(display).toEqual(['sleep', 'wake', 'sleep']);
    await agent.stop();
  });

  it('is only black when the app cannot sleep the display, and says so', async () => {
    controls = {};
    const agent = await startScheduled('2026-11-23T22:00:00Z', null, power);
    expect(agent.getState().display?.off).toBe(true);
    await clock.advance(30_000);
    expect(lastBeat()).toMatchObject({ showing: 'off', power: { off: true, method: 'black' } });
    await agent.stop();
  });

  it('refuses a wake command outside a power window, with nothing to do', async () => {
    const agent = await startScheduled('2026-11-23T12:00:00Z', null, power);
    socket.push({ id: 11, type: 'command.created', command: wakeCommand('cmd_wake') });
    await clock.advance(0);
    expect(agent.getState().display?.off).toBe(false);
    expect(display).toEqual([]);
    expect(log.lines).toContain('info command cmd_wake: the screen is not off');
    await agent.stop();
  });
});

describe('the one timer', () => {
  it('is set for the next change, looks again within the hour at the latest, and tells only changes', async () => {
    clock.current = Date.parse('2026-11-23T08:00:00Z');
    const delays: number[] = [];
    let refreshes = 0;
    let shown = emptyState({ tag: 'lobby', name: 'Lobby' });
    const player = new SchedulePlayer({
      clock: {
        now: () => clock.now(),
        setTimeout: (run, ms) => (delays.push(ms), clock.setTimeout(run, ms)),
      },
      log,
      systemTimeZone: () => 'UTC',
      controls: () => ({}),
      current: () => shown,
      refresh: () => void refreshes++,
    });
    const device = service.addDevice('lobby', 'p1');
    const show = (schedule: Schedule) => {
      shown = player.view({
        ...emptyState({ tag: 'lobby', name: 'Lobby' }),
        playlists: { p1: samplePlaylist('p1', []), p2: samplePlaylist('p2', []) },
        settings: { ...ownSettings(device), schedule },
      });
      player.observe(shown);
    };

    // Friday evening is days away: a timer that long would drift, or miss a clock set meanwhile.
    show({ entries: [entry('p2', ['fri'], '18:00', '22:00')], default_playlist_id: null });
    expect(delays).toEqual([RECHECK_MS]);
    // Nothing changed within the hour: the renderer is not told, and the timer is set again.
    await clock.advance(RECHECK_MS);
    expect(refreshes).toBe(0);
    expect(delays).toEqual([RECHECK_MS, RECHECK_MS]);

    // A change in 10 minutes: the timer is set for it, and the one before is gone.
    show({ entries: [entry('p2', ['mon'], '09:10', '10:00')], default_playlist_id: null });
    expect(delays).toEqual([RECHECK_MS, RECHECK_MS, 10 * MINUTE]);
    await clock.advance(10 * MINUTE);
    expect(refreshes).toBe(1);
    player.stop();
  });
});
