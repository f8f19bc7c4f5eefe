// The agent started without a credential (it pairs, then plays), and with one the service refuses.
import { beforeEach, describe, expect, it } from 'vitest';
import type { HelloAck } from '../shared/events';
import { DeviceAgent } from './agent';
import type { ClientConfig, Credential } from './config';
import { POLL_MS } from './pairing';
import type { RealtimeOptions } from './ports';
import { FakePairings } from './testing/fake-pairings';
import { FakeService, sampleBoard, samplePlaylist } from './testing/fake-service';
import { agentDeps, FakeClock, FakeSocket, MemoryStore, recordingLogger } from './testing/fakes';

const SERVER = 'http://service.test';
const base: ClientConfig = {
  server: SERVER,
  token: null,
  tag: 'screen-abc',
  name: 'Lobby',
  heartbeatSeconds: 30,
  cacheDir: '/unused',
  cacheLimitBytes: 1e9,
};

const resyncAck = (): HelloAck => ({ resync: true, events: [], last_event_id: 10 });

let clock: FakeClock;
let service: FakeService;
let pairings: FakePairings;
let socket: FakeSocket;
let connections: RealtimeOptions[];
let saved: Credential[];
let log: ReturnType<typeof recordingLogger>;

beforeEach(() => {
  clock = new FakeClock();
  clock.current = Date.parse('2026-11-21T08:00:00Z');
  service = new FakeService(() => clock.now());
  pairings = new FakePairings(clock, service.fetch);
  socket = new FakeSocket(resyncAck);
  connections = [];
  saved = [];
  log = recordingLogger();
});

function makeAgent(config: ClientConfig): DeviceAgent {
  return new DeviceAgent(
    agentDeps({
      fetch: pairings.fetch,
      connectRealtime: (options) => {
        connections.push(options);
        return socket;
      },
      clock,
      store: new MemoryStore(),
      log,
      saveCredential: async (credential) => void saved.push(credential),
    }),
    config,
  );
}

describe('a screen without a token', () => {
  it('shows a code, and once claimed keeps the credential, becomes the device it was given and plays', async () => {
    // What the claim made: device "kitchen" with a playlist.
    service.addDevice('kitchen', 'p1');
    service.playlists.set('p1', samplePlaylist('p1', ['b1']));
    service.exports.set('b1', sampleBoard('Kitchen', 'cpu', 1));
    const agent = makeAgent(base);
    agent.recordRecovery('restarted the app: renderer kept crashing');
    await agent.start();
    await clock.advance(0);
    expect(agent.getState().setup).toMatchObject({ kind: 'pairing', code: 'ABC3EF', service_url: SERVER });
    expect(connections).toEqual([]);

    pairings.set(1, 'claimed');
    await clock.advance(POLL_MS);
    const credential = { server: SERVER, token: 'token-of-kitchen-0123456789', tag: 'kitchen' };
    expect(saved).toEqual([credential]);
    expect(connections).toMatchObject([{ url: SERVER, token: credential.token }]);
    socket.fire('connect');
    await clock.advance(0);
    expect(agent.getState()).toMatchObject({
      device: { tag: 'kitchen' },
      playlist: { id: 'p1' },
      online: true,
    });
    expect(agent.getState().setup ?? null).toBeNull();
    expect(socket.hellos).toEqual([{ tag: 'kitchen', lastEventId: null }]);
    // Registered and beating as the device it was given, with what happened before it paired.
    expect(service.calls.find((call) => call.path === '/devices/kitchen/heartbeat')?.body).toMatchObject({
      recoveries: ['restarted the app: renderer kept crashing'],
    });
    expect(service.calls.filter((call) => call.method === 'POST' && call.path === '/devices')).toEqual([]);
    await agent.stop();
    expect(service.count('POST', '/devices/kitchen/offline')).toBe(1);
  });

  it('stops pairing when it is stopped', async () => {
    const agent = makeAgent(base);
    await agent.start();
    await clock.advance(0);
    await agent.stop();
    const calls = pairings.calls.length;
    await clock.advance(60_000);
    expect(pairings.calls.length).toBe(calls);
    expect(log.lines.join('\n')).not.toContain('pairing ended');
  });
});

describe('a screen whose token is refused', () => {
  const configured: ClientConfig = { ...base, tag: 'lobby', token: 'revoked' };

  it('says so on screen, keeps trying, and plays again once the token is taken', async () => {
    service.failWith = 401;
    const agent = makeAgent(configured);
    await agent.start();
    socket.fire('connect');
    await clock.advance(0);
    expect(agent.getState().setup).toEqual({ kind: 'refused', service_url: SERVER });
    expect(log.lines.join('\n')).toContain("refused this screen's token");

    service.failWith = null;
    service.addDevice('lobby');
    await clock.advance(60_000);
    expect(agent.getState()).toMatchObject({ online: true });
    expect(agent.getState().setup ?? null).toBeNull();
    expect(log.lines.join('\n')).toContain("takes this screen's token again");
    await agent.stop();
  });

  it('says so when the realtime connection is refused, and asks again slowly', async () => {
    const agent = makeAgent(configured);
    await agent.start();
    socket.fire('refused', { message: 'a valid token is required', code: null, retryAfterSeconds: null });
    expect(agent.getState().setup).toEqual({ kind: 'refused', service_url: SERVER });
    // A minute, jittered over its upper half (here 45 s): socket.io itself would not try again.
    await clock.advance(44_999);
    expect(socket.reconnects).toBe(0);
    await clock.advance(1);
    expect(socket.reconnects).toBe(1);
    await agent.stop();
  });

  it('is not refused when it was only rate-limited: it waits what the service asked', async () => {
    const agent = makeAgent(configured);
    await agent.start();
    socket.fire('refused', { message: 'too many requests', code: 'rate_limited', retryAfterSeconds: 7 });
    expect(agent.getState().setup ?? null).toBeNull();
    await clock.advance(7000);
    expect(socket.reconnects).toBe(1);
    await agent.stop();
  });
});
