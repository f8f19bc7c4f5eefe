import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { listen } from '../../service/testing/realtime-clients';
import { multipart } from '../../service/testing/multipart';
import { ADMIN_SECRET, startTestService, type TestService } from '../../service/test-support';
import type { DeviceAgent } from '../agent/agent';
import { createNodeAgent } from '../agent/node-agent';
import { nodeSystemInfo } from '../agent/node-edges';
import { recordingLogger } from '../agent/testing/fakes';
import type { Release } from '../shared/release';
import type { CallFrame } from '../shared/web-bridge-protocol';
import { startWebPlayerServer, type WebPlayerServer } from './web-player-server';
import type { WebReleases } from './web-releases';
import { openWebReleases } from './web-update-target';

// The whole way against the real service: a web release uploaded and pinned to the screen, the
// agent's update coordinator downloading it through the device's file route, the web player
// trying it beside the page on screen and, once its page reports what it shows, serving it; the
// service then has the screen's `installed` report; then one whose page never reports, rolled back. Pages are WebSocket clients here, the swap in
// Chromium is e2e/web-player-update.spec.ts.

let service: TestService;
let dir: string;
let agent: DeviceAgent;
let releases: WebReleases;
let player: WebPlayerServer;
const sockets: WebSocket[] = [];

const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64');

async function uploadWeb(version: string): Promise<Release> {
  const files = [
    { name: 'index.html', content: Buffer.from(`<!doctype html><title>${version}</title>`) },
    { name: 'assets/index-abc.js', content: Buffer.from(`console.log(${JSON.stringify(version)});`) },
  ];
  const manifest = {
    version,
    files: files.map((file) => ({
      name: file.name,
      size: file.content.length,
      sha512: sha512(file.content),
    })),
  };
  const body = multipart([
    { name: 'kind', content: 'web' },
    ...files.map((file) => ({ name: 'file', filename: file.name, content: file.content })),
    { name: 'file', filename: 'release.json', content: Buffer.from(JSON.stringify(manifest)) },
  ]);
  const response = await service.app.inject({
    method: 'POST',
    url: '/releases',
    headers: { ...body.headers, authorization: `Bearer ${ADMIN_SECRET}` },
    payload: body.payload,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** A page of `label` on the player's bridge. */
async function page(label: string): Promise<WebSocket> {
  const url = new URL(`bridge?page=${encodeURIComponent(`/v/${label}/`)}`, player.url).href.replace(
    /^http/,
    'ws',
  );
  const socket = new WebSocket(url);
  sockets.push(socket);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return socket;
}

const send = (socket: WebSocket, frame: CallFrame) => socket.send(JSON.stringify(frame));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-web-update-'));
  service = await startTestService({ config: { mediaDir: join(dir, 'service-media') } });
  const url = await listen(service);
  await mkdir(join(dir, 'renderer'));
  await writeFile(join(dir, 'renderer', 'index.html'), '<!doctype html><title>built in</title>');
  const log = recordingLogger();
  const opened = await openWebReleases({
    dataDir: join(dir, 'player'),
    rendererDir: join(dir, 'renderer'),
    appVersion: '1.0.0',
    log,
    // The page on trial here reports at once; the one that never does is rolled back in 3 s.
    healthTimeoutMs: 3000,
  });
  releases = opened.releases;
  ({ agent } = createNodeAgent({
    config: {
      server: url,
      token: ADMIN_SECRET,
      tag: 'web-screen',
      name: 'Web screen',
      heartbeatSeconds: 5,
      cacheDir: join(dir, 'media'),
      cacheLimitBytes: 1e8,
    },
    dataDir: join(dir, 'player'),
    mediaBaseUrl: '/media/',
    appVersion: '1.0.0',
    log,
    system: nodeSystemInfo,
    updateTargets: [opened.target],
  }));
  await agent.start();
  player = await startWebPlayerServer({
    host: agent,
    rendererDir: join(dir, 'renderer'),
    mediaDir: join(dir, 'media'),
    releases,
  });
});

afterAll(async () => {
  for (const socket of sockets) socket.terminate();
  await player.close();
  await agent.stop();
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a web release from the service', () => {
  it('is downloaded, tried beside the page on screen, served once it shows, and reported installed', async () => {
    const onScreen = await page('built-in');
    send(onScreen, { method: 'reportShowing', request: { showing: 'waiting' } });
    await vi.waitFor(
      async () => expect((await service.call('GET', '/devices/web-screen')).statusCode).toBe(200),
      { timeout: 15_000, interval: 100 },
    );
    const release = await uploadWeb('1.1.0');
    const pinned = await service.call('PUT', '/devices/web-screen/release-pins/web', {
      release_id: release.id,
    });
    expect(pinned.statusCode, pinned.body).toBeLessThan(300);

    // The agent hears of the offer, downloads it through the device's file route and puts it on trial.
    await vi.waitFor(
      () => expect(releases.state().trial).toMatchObject({ label: '1.1.0', url: '/v/1.1.0/' }),
      {
        timeout: 20_000,
        interval: 100,
      },
    );
    expect(await (await fetch(new URL('v/1.1.0/', player.url))).text()).toBe(
      '<!doctype html><title>1.1.0</title>',
    );
    const trial = await page('1.1.0');
    send(trial, { method: 'reportShowing', request: { showing: 'waiting' } });

    await vi.waitFor(
      async () => {
        const state = (await service.call('GET', '/devices/web-screen/releases')).json<{
          reports: { web?: { version: string; outcome: string; detail: string } };
        }>();
        expect(state.reports.web).toMatchObject({ version: '1.1.0', outcome: 'installed' });
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(releases.liveVersion()).toMatchObject({ label: '1.1.0', version: '1.1.0' });
    expect(JSON.parse(await readFile(join(dir, 'player', 'versions', 'current'), 'utf8'))).toMatchObject({
      current: '1.1.0',
      previous: null,
    });
    expect((await fetch(player.url, { redirect: 'manual' })).headers.get('location')).toBe('/v/1.1.0/');
  });

  it('is rolled back, and reported so, when its page does not show anything within the health timeout', async () => {
    const release = await uploadWeb('1.2.0');
    const pinned = await service.call('PUT', '/devices/web-screen/release-pins/web', {
      release_id: release.id,
    });
    expect(pinned.statusCode, pinned.body).toBeLessThan(300);
    await vi.waitFor(() => expect(releases.state().trial).toMatchObject({ label: '1.2.0' }), {
      timeout: 20_000,
      interval: 100,
    });
    // Its page connects (or not) but never shows anything.
    await page('1.2.0');
    await vi.waitFor(
      async () => {
        const state = (await service.call('GET', '/devices/web-screen/releases')).json<{
          reports: { web?: { version: string; outcome: string; detail: string } };
        }>();
        expect(state.reports.web).toMatchObject({
          version: '1.2.0',
          outcome: 'rolled_back',
          detail: 'version 1.2.0 did not report what it shows within 3 s; back on 1.1.0',
        });
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(releases.state()).toMatchObject({ live: { label: '1.1.0' }, trial: null });
    expect((await fetch(player.url, { redirect: 'manual' })).headers.get('location')).toBe('/v/1.1.0/');
  });
});
