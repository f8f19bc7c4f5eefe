// A screen with nothing configured, against the real service: it finds the service over mDNS
// (on loopback, on a port of its own: no packet reaches the network), shows a code, is claimed
// through the API, keeps its credential and plays, and needs no pairing at its next start.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestService, type TestService } from '../../service/test-support';
import type { DeviceAgent } from './agent';
import type { ClientConfig } from './config';
import { SETTLE_MS } from './discovery';
import { bonjourBrowser } from './node-edges';
import { createNodeAgent, loadAgentConfig } from './node-agent';
import { fixedSystem, recordingLogger, SkippableClock } from './testing/fakes';
import { freeUdpPort } from '../node/testing/free-ports';

const wait = { timeout: 15_000, interval: 50 };
let dir: string;
let service: TestService;
let serviceUrl: string;
let mdns: { interface: string; port: number };
const agents: DeviceAgent[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-pairing-'));
  mdns = { interface: '127.0.0.1', port: await freeUdpPort() };
  service = await startTestService({
    mdns: { interface: mdns.interface, mdnsPort: mdns.port, name: 'Wallboard pairing test' },
  });
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  serviceUrl = `http://127.0.0.1:${(service.app.server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.stop()));
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

function startAgent(config: ClientConfig, clock = new SkippableClock()): DeviceAgent {
  const log = recordingLogger();
  const { agent } = createNodeAgent({
    config,
    dataDir: dir,
    mediaBaseUrl: '/media/',
    appVersion: 'test',
    log,
    system: fixedSystem,
    clock,
    browser: bonjourBrowser(log, mdns),
  });
  agents.push(agent);
  return agent;
}

describe('pairing against the real service', () => {
  it('finds the service, shows a code, and plays the playlist it is claimed with', async () => {
    const board = (
      await service.call('POST', '/boards/import', {
        name: 'Kitchen',
        widgets: [
          {
            flow: { tag: 'kitchen-cpu', data: { value: 1 } },
            variant: 'value',
            column: 0,
            row: 0,
            width: 8,
            height: 6,
          },
        ],
      })
    ).json<{ id: string }>();
    const playlist = (
      await service.call('POST', '/playlists', {
        name: 'Kitchen',
        items: [{ type: 'board', board_id: board.id, duration: 10 }],
      })
    ).json<{ id: string }>();

    const config = await loadAgentConfig({}, dir, fixedSystem);
    expect(config).toMatchObject({ server: null, token: null });
    const clock = new SkippableClock();
    const agent = startAgent(config, clock);
    await agent.start();
    await vi.waitFor(
      () =>
        expect(agent.getState().setup).toMatchObject({
          kind: 'discovering',
          services: [{ url: serviceUrl }],
        }),
      wait,
    );
    await clock.skip(SETTLE_MS);
    await vi.waitFor(() => expect(agent.getState().setup?.kind).toBe('pairing'), wait);
    const setup = agent.getState().setup;
    if (setup?.kind !== 'pairing') throw new Error('no code');
    expect(setup).toMatchObject({
      service_url: serviceUrl,
      claim_url: `${serviceUrl}/#/pair?code=${setup.code}`,
    });

    const claimed = await service.call('POST', '/pairings/claim', {
      code: setup.code.toLowerCase(),
      tag: 'kitchen',
      name: 'Kitchen screen',
      playlist_id: playlist.id,
    });
    expect(claimed.statusCode).toBe(201);
    const claimedAt = Date.now();
    await vi.waitFor(() => expect(agent.getState().playlist?.id).toBe(playlist.id), wait);
    expect(Date.now() - claimedAt).toBeLessThan(5000);
    expect(agent.getState()).toMatchObject({ device: { tag: 'kitchen' }, online: true });
    expect(Object.keys(agent.getState().boards)).toEqual([board.id]);
    await vi.waitFor(
      async () =>
        expect((await service.call('GET', '/devices/kitchen')).json()).toMatchObject({ online: true }),
      wait,
    );

    // Kept as the web player keeps a token: in its settings file, for its user's eyes only.
    const file = join(dir, 'settings', 'settings.json');
    const kept = JSON.parse(await readFile(file, 'utf8')) as { server: string; token: string; tag: string };
    expect(kept).toMatchObject({ server: serviceUrl, tag: 'kitchen' });
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    // The next start needs no pairing.
    await agent.stop();
    agents.length = 0;
    const again = await loadAgentConfig({}, dir, fixedSystem);
    expect(again).toMatchObject({ server: serviceUrl, token: kept.token, tag: 'kitchen' });
    const second = startAgent(again);
    await second.start();
    await vi.waitFor(
      () => expect(second.getState()).toMatchObject({ online: true, playlist: { id: playlist.id } }),
      wait,
    );
    expect(second.getState().setup ?? null).toBeNull();
  }, 60_000);

  it('says so on screen when the service refuses its token, and keeps trying', async () => {
    const agent = startAgent({
      ...(await loadAgentConfig({}, dir, fixedSystem)),
      server: serviceUrl,
      token: 'not-a-token-of-this-service',
    });
    await agent.start();
    await vi.waitFor(
      () => expect(agent.getState().setup).toEqual({ kind: 'refused', service_url: serviceUrl }),
      wait,
    );
  }, 30_000);
});
