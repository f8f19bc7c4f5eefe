import { beforeEach, describe, expect, it } from 'vitest';
import type { Heartbeat } from '../shared/device';
import type { OverrideShown } from '../shared/override';
import type { PlayReport } from '../shared/play';
import type { PowerSchedule } from '../shared/schedule';
import { DeviceAgent } from './agent';
import type { DeviceControls, PowerMethod } from './commands';
import type { MediaStore } from './ports';
import { FakeService, ownSettings, sampleBoard, samplePlaylist } from './testing/fake-service';
import { agentDeps, FakeClock, FakeSocket, lobbyConfig, MemoryStore, recordingLogger } from './testing/fakes';

// The emergency override as the device plays it: from its settings, above the schedule and the
// power windows, ended at its expiry by the device's own clock, and kept across a restart.

const MINUTE = 60_000;
const IMAGE = 'https://cdn.test/evacuate.png';
const SOUND = 'https://cdn.test/siren.wav';
const BACKGROUND = 'https://cdn.test/board-background.jpg';
/** Weekdays 20:00 to 07:00 in Paris: Monday 23:00 there (22:00 UTC) is inside it. */
const POWER: PowerSchedule = {
  off: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '20:00', to: '07:00' }],
};
const NIGHT = '2026-11-23T22:00:00Z';

let clock: FakeClock;
let service: FakeService;
let disk: MemoryStore;
let socket: FakeSocket;
let display: string[];
let controls: Partial<DeviceControls>;
let cached: Set<string>;
let fetched: string[];

/** A media cache that downloads at once, recording what it fetched, in order. */
function recordingMedia(): MediaStore {
  return {
    load: async () => undefined,
    flush: async () => undefined,
    useService: () => undefined,
    usage: () => ({ bytes: 0, items: cached.size }),
    has: (url) => cached.has(url),
    nameOf: (url) => url.split('/').pop() ?? 'x',
    ensure: async (url) => {
      fetched.push(url);
      cached.add(url);
      return url;
    },
  };
}

function makeAgent(): DeviceAgent {
  const agent = new DeviceAgent(
    agentDeps({
      fetch: service.fetch,
      connectRealtime: () => socket,
      clock,
      store: disk,
      log: recordingLogger(),
      media: recordingMedia(),
      systemTimeZone: () => 'Europe/Paris',
    }),
    lobbyConfig,
  );
  agent.useControls(controls);
  return agent;
}

function emergency(fields: Partial<OverrideShown> = {}): OverrideShown {
  return {
    id: 'ovr_fire',
    title: 'Evacuate',
    message: 'Leave by the nearest exit.',
    image_url: IMAGE,
    sound_url: SOUND,
    background_color: null,
    expires_at: null,
    created_at: new Date(clock.now()).toISOString(),
    ...fields,
  };
}

/** The screen "lobby" playing p1, with these power windows and override, synced at `at`. */
async function start(at: string, override: OverrideShown | null, power: PowerSchedule | null = POWER) {
  clock.current = Date.parse(at);
  const device = service.addDevice('lobby', 'p1');
  service.playlists.set('p1', samplePlaylist('p1', ['b1']));
  service.exports.set('b1', { ...sampleBoard('One', 'cpu', 1), background_url: BACKGROUND });
  service.settings.set('lobby', { ...ownSettings(device), power, override });
  const agent = makeAgent();
  await agent.start();
  socket.fire('connect');
  await clock.advance(0);
  return agent;
}

/** The service raised or cleared an override: the settings say so and it emits `device.changed`. */
async function changeOverride(override: OverrideShown | null, eventId: number): Promise<void> {
  const settings = service.settings.get('lobby');
  if (!settings) throw new Error('no settings');
  service.settings.set('lobby', { ...settings, override });
  socket.push({ id: eventId, type: 'device.changed', device_tag: 'lobby' });
  await clock.advance(1000);
}

function lastBeat(): Heartbeat {
  const beats = service.calls.filter((c) => c.path === '/devices/lobby/heartbeat');
  return beats.at(-1)?.body as Heartbeat;
}

function play(at: number): PlayReport {
  return {
    type: 'board',
    board_id: 'b1',
    url: null,
    channel_id: 'ch_default',
    started_at: new Date(at - 10_000).toISOString(),
    ended_at: new Date(at).toISOString(),
  };
}

beforeEach(() => {
  clock = new FakeClock();
  service = new FakeService(() => clock.now());
  disk = new MemoryStore();
  socket = new FakeSocket(() => ({ resync: true, events: [], last_event_id: 10 }));
  display = [];
  cached = new Set();
  fetched = [];
  controls = {
    sleepDisplay: async (): Promise<PowerMethod> => {
      display.push('sleep');
      return 'dpms';
    },
    wakeDisplay: async () => void display.push('wake'),
  };
});

describe('an emergency override on the device', () => {
  it('wakes a screen asleep in its power window, and puts it back to sleep when cleared', async () => {
    const agent = await start(NIGHT, null);
    expect(agent.getState()).toMatchObject({ override: null, display: { off: true } });
    expect(display).toEqual(['sleep']);

    await changeOverride(emergency(), 11);
    expect(agent.getState()).toMatchObject({ override: { id: 'ovr_fire' }, display: { off: false } });
    expect(agent.getState().playlist?.id).toBe('p1');
    expect(display).toEqual(['sleep', 'wake']);
    await clock.advance(30_000);
    expect(lastBeat().power).toEqual({ off: false, method: null });

    await changeOverride(null, 12);
    expect(agent.getState()).toMatchObject({ override: null, display: { off: true } });
    expect(display).toEqual(['sleep', 'wake', 'sleep']);
    await agent.stop();
  });

  it('ends by itself at its expiry with the service gone, to the second', async () => {
    const expires = Date.parse(NIGHT) + 10 * MINUTE;
    const agent = await start(NIGHT, emergency({ expires_at: new Date(expires).toISOString() }));
    expect(agent.getState()).toMatchObject({ override: { id: 'ovr_fire' }, display: { off: false } });
    expect(display).toEqual([]);
    service.down = true;
    socket.fire('disconnect', 'transport close');
    const calls = service.calls.length;

    await clock.advance(expires - clock.now() - 1);
    expect(agent.getState().override?.id).toBe('ovr_fire');
    await clock.advance(1);
    // Back in its power window, asleep: ended by the device's own timer, nothing asked of the service.
    expect(agent.getState()).toMatchObject({ override: null, display: { off: true } });
    expect(display).toEqual(['sleep']);
    expect(service.calls.slice(calls).filter((c) => !c.path.endsWith('/heartbeat'))).toEqual([]);
    await agent.stop();
  });

  it('is shown again at once by a screen restarted during it, offline, with its cached image', async () => {
    const first = await start(NIGHT, emergency());
    await clock.advance(0);
    expect(first.getState().media).toEqual({
      [IMAGE]: '/media/evacuate.png',
      [SOUND]: '/media/siren.wav',
      [BACKGROUND]: '/media/board-background.jpg',
    });
    await first.stop();
    // What the disk holds: the settings with the override (the agent plays them again from there).
    const saved = (await disk.read('player-state')) as { state: { settings: { override: unknown } } };
    expect(saved.state.settings.override).toMatchObject({ id: 'ovr_fire', image_url: IMAGE });

    service.down = true;
    socket = new FakeSocket(() => ({ resync: true, events: [], last_event_id: 10 }));
    const second = makeAgent();
    await second.start();
    expect(second.getState()).toMatchObject({
      stale: true,
      online: false,
      override: { id: 'ovr_fire', title: 'Evacuate' },
      display: { off: false },
      media: { [IMAGE]: '/media/evacuate.png' },
    });
    expect(display).toEqual([]);
    await second.stop();
  });

  it('is not shown after a restart once it has expired meanwhile', async () => {
    const expires = Date.parse(NIGHT) + MINUTE;
    const first = await start(NIGHT, emergency({ expires_at: new Date(expires).toISOString() }));
    await first.stop();
    service.down = true;
    clock.current = expires + 1;
    socket = new FakeSocket(() => ({ resync: true, events: [], last_event_id: 10 }));
    const second = makeAgent();
    await second.start();
    expect(second.getState()).toMatchObject({ override: null, display: { off: true } });
    await second.stop();
  });

  it('caches its image and sound before the playlist, and never fetches the chime', async () => {
    const agent = await start(NIGHT, emergency({ sound_url: 'default' }), null);
    await clock.advance(0);
    expect(fetched).toEqual([IMAGE, BACKGROUND]);
    await changeOverride(emergency({ id: 'ovr_2', image_url: null, sound_url: SOUND }), 11);
    expect(fetched).toEqual([IMAGE, BACKGROUND, SOUND]);
    expect(agent.getState().media[SOUND]).toBe('/media/siren.wav');
    await agent.stop();
  });

  it('counts no play while it covers the screen', async () => {
    const agent = await start('2026-11-23T12:00:00Z', emergency(), null);
    agent.reportPlay(play(clock.now()));
    await clock.advance(MINUTE);
    expect(service.count('POST', '/devices/lobby/plays')).toBe(0);
    await changeOverride(null, 11);
    agent.reportPlay(play(clock.now()));
    await clock.advance(MINUTE);
    expect(service.count('POST', '/devices/lobby/plays')).toBe(1);
    await agent.stop();
  });
});
