import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServiceConfig } from '../../service/context';
import { startTestService, type TestService } from '../../service/test-support';
import { solidPng } from '../../service/testing/png';
import { listen } from '../../service/testing/realtime-clients';
import { createNodeAgent } from './node-agent';
import { nodeAgentOptions } from './testing/real-service';

/** The tile source on the loopback address, standing in for OpenStreetMap's. */
let upstream: Server;
let template: string;
beforeAll(async () => {
  upstream = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'image/png' }).end(solidPng(2, 2, 50));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  template = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/{z}/{x}/{y}.png`;
});
afterAll(() => new Promise((resolve) => upstream.close(resolve)));

let service: TestService | null = null;
let dir: string | null = null;
let stop: (() => Promise<void>) | null = null;
afterEach(async () => {
  await stop?.();
  await service?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  [service, dir, stop] = [null, null, null];
});

/** A screen paired to a service with `mapTiles`: its agent, tile cache and folder. */
async function screenOn(mapTiles: ServiceConfig['mapTiles']) {
  service = await startTestService({ config: { mapTiles } });
  const server = await listen(service);
  dir = await mkdtemp(join(tmpdir(), 'wallboard-map-'));
  await service.call('POST', '/devices', { tag: 'lobby', name: 'Lobby' });
  const token = (
    await service.call('POST', '/account/tokens', { scope: 'affiliated', name: 'lobby', device_tag: 'lobby' })
  ).json<{ token: string }>().token;
  const created = createNodeAgent({
    ...nodeAgentOptions({
      port: Number(new URL(server).port),
      token,
      tag: 'lobby',
      name: 'Lobby',
      dataDir: dir,
      heartbeatSeconds: 30,
    }),
    tileUrlTemplate: '/tiles/{z}/{x}/{y}',
  });
  await created.agent.start();
  stop = () => created.agent.stop();
  return { ...created, dir };
}

describe('maps on a screen', () => {
  it("tells the renderer the host's tile URL and the service's attribution, and fetches tiles with the screen's token", async () => {
    const screen = await screenOn({ urlTemplate: template, attribution: '© Stand-in Maps', maxZoom: 17 });
    await vi.waitFor(
      () =>
        expect(screen.agent.getState().web).toEqual({
          tiles: { url: '/tiles/{z}/{x}/{y}', attribution: '© Stand-in Maps', max_zoom: 17 },
          custom_network: false,
        }),
      { timeout: 10_000, interval: 50 },
    );
    expect(await screen.tiles.tile(4, 8, 5)).toEqual({
      ok: true,
      body: solidPng(2, 2, 50),
      contentType: 'image/png',
    });
    expect(await readdir(join(screen.dir, 'media', 'tiles'))).toEqual(['4-8-5.png']);
  });

  it('tells no tiles when the service has no tile source', async () => {
    const screen = await screenOn(null);
    await vi.waitFor(() => expect(screen.agent.getState().online).toBe(true), {
      timeout: 10_000,
      interval: 50,
    });
    expect(screen.agent.getState().web).toEqual({ tiles: null, custom_network: false });
  });
});
