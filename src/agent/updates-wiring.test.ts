import { beforeEach, describe, expect, it } from 'vitest';
import type { ReleaseOffer } from '../shared/release';
import { DeviceAgent } from './agent';
import { FakeService, ownSettings, sampleBoard, samplePlaylist } from './testing/fake-service';
import { agentDeps, FakeClock, FakeSocket, lobbyConfig, MemoryStore, recordingLogger } from './testing/fakes';
import type { InstallResult, ReleaseSource, UpdateTarget } from './update-ports';

// The coordinator inside the agent: offers come with the settings, moments with the renderer's
// reports, and reports go to the service with the screen's token.

class RecordingTarget implements UpdateTarget {
  readonly kind = 'web';
  readonly sources: ReleaseSource[] = [];
  readonly installs: string[] = [];
  version = '3.0.0';
  currentVersion = () => this.version;
  async download(_offer: ReleaseOffer, source: ReleaseSource): Promise<void> {
    this.sources.push(source);
  }
  async install(offer: ReleaseOffer): Promise<InstallResult> {
    this.installs.push(offer.version);
    this.version = offer.version;
    return 'installed';
  }
}

const offer: ReleaseOffer = {
  release_id: 'rel_web_31',
  kind: 'web',
  channel: 'stable',
  version: '3.1.0',
  files: [],
  base_url: '/devices/lobby/releases/rel_web_31/files',
};

let clock: FakeClock;
let service: FakeService;
let target: RecordingTarget;

beforeEach(() => {
  clock = new FakeClock();
  service = new FakeService(() => clock.now());
  target = new RecordingTarget();
});

async function startAgent(): Promise<DeviceAgent> {
  const device = service.addDevice('lobby', 'p1');
  service.playlists.set('p1', samplePlaylist('p1', ['b1', 'b2']));
  service.exports.set('b1', sampleBoard('One', 'cpu', 1));
  service.exports.set('b2', sampleBoard('Two', 'cpu', 2));
  service.settings.set('lobby', { ...ownSettings(device), release: { shell: null, web: offer } });
  const socket = new FakeSocket(() => ({ resync: true, events: [], last_event_id: 1 }));
  const agent = new DeviceAgent(
    agentDeps({
      fetch: service.fetch,
      connectRealtime: () => socket,
      clock,
      store: new MemoryStore(),
      log: recordingLogger(),
      updateTargets: [target],
    }),
    lobbyConfig,
  );
  // A board is on screen from before (the renderer reports at once).
  agent.reportShowing({ showing: 'board:b1' });
  await agent.start();
  socket.fire('connect');
  await clock.advance(0);
  return agent;
}

const reports = () =>
  service.calls
    .filter((call) => call.method === 'POST' && call.path === '/devices/lobby/update-reports')
    .map((call) => (call.body as { outcome: string }).outcome);

describe('updates in the agent', () => {
  it('takes the offer from the settings, installs at the renderer’s next item and reports to the service', async () => {
    const agent = await startAgent();
    expect(target.sources).toEqual([
      { baseUrl: 'http://service.test/devices/lobby/releases/rel_web_31/files', token: 'secret' },
    ]);
    expect(target.installs).toEqual([]);
    expect(reports()).toEqual(['downloading']);

    agent.reportShowing({ showing: 'board:b2' });
    await clock.advance(0);
    expect(target.installs).toEqual(['3.1.0']);
    expect(reports()).toEqual(['downloading', 'installed']);
    await agent.stop();
  });

  it('takes the end of an item’s turn (a play report) as a moment too', async () => {
    const agent = await startAgent();
    agent.reportPlay({
      type: 'board',
      board_id: 'b1',
      url: null,
      channel_id: null,
      started_at: new Date(clock.now() - 10_000).toISOString(),
      ended_at: new Date(clock.now()).toISOString(),
    });
    await clock.advance(0);
    expect(target.installs).toEqual(['3.1.0']);
    await agent.stop();
  });
});
