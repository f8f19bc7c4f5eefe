import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { listen } from '../../service/testing/realtime-clients';
import { ADMIN_SECRET, startTestService, type TestService } from '../../service/test-support';
import type { DeviceAgent } from '../agent/agent';
import { createNodeAgent } from '../agent/node-agent';
import { nodeSystemInfo } from '../agent/node-edges';
import { recordingLogger, SkippableClock } from '../agent/testing/fakes';
import type { CallFrame } from '../shared/web-bridge-protocol';
import { startWebPlayerServer, type WebPlayerServer } from './web-player-server';

// The real service, and the web player (its agent and its page server) in this process, with a
// WebSocket client standing in for the page: what the status says while no page is attached,
// once one reports, and after it left.

let service: TestService;
let dir: string;
let clock: SkippableClock;
let agent: DeviceAgent;
let player: WebPlayerServer;

beforeAll(async () => {
  service = await startTestService();
  const url = await listen(service);
  dir = await mkdtemp(join(tmpdir(), 'wallboard-web-player-'));
  await mkdir(join(dir, 'renderer'));
  await writeFile(join(dir, 'renderer', 'index.html'), '<!doctype html><title>player</title>');
  clock = new SkippableClock();
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
    dataDir: dir,
    mediaBaseUrl: '/media/',
    appVersion: 'test',
    log: recordingLogger(),
    system: nodeSystemInfo,
    clock,
  }));
  await agent.start();
  player = await startWebPlayerServer({
    host: agent,
    rendererDir: join(dir, 'renderer'),
    mediaDir: join(dir, 'media'),
  });
});

afterAll(async () => {
  await player.close();
  await agent.stop();
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

interface Status {
  showing: string;
  display: { width: number; height: number } | null;
  uptime_seconds: number;
  failures: { item: string; reason: string; at: string }[];
  received_at: string;
}

/** The status after the next heartbeat: the agent's wait for it is skipped. */
async function nextStatus(): Promise<Status> {
  const before = (await service.call('GET', '/devices/web-screen/status')).json<Partial<Status>>()
    .received_at;
  await clock.skip(6000);
  return vi.waitFor(
    async () => {
      const status = (await service.call('GET', '/devices/web-screen/status')).json<Status>();
      expect(status.received_at).toBeDefined();
      expect(status.received_at).not.toBe(before);
      return status;
    },
    { timeout: 10_000, interval: 50 },
  );
}

async function attachPage(): Promise<WebSocket> {
  const page = new WebSocket(new URL('bridge', player.url).href.replace(/^http/, 'ws'));
  await new Promise((resolve, reject) => page.once('open', resolve).once('error', reject));
  return page;
}

const send = (page: WebSocket, frame: CallFrame) => page.send(JSON.stringify(frame));

describe('the web player status', () => {
  it('says "no renderer" with no display while no page is attached, with the app\'s uptime', async () => {
    await vi.waitFor(
      async () => expect((await service.call('GET', '/devices/web-screen')).json().online).toBe(true),
      {
        timeout: 15_000,
        interval: 50,
      },
    );
    const status = await nextStatus();
    expect(status).toMatchObject({ showing: 'no renderer', display: null, failures: [] });
    // This process's uptime, not the machine's.
    expect(status.uptime_seconds).toBeLessThanOrEqual(Math.ceil(process.uptime()));
    expect(status.uptime_seconds).toBeLessThan(os.uptime());
  });

  it('says what the page shows and its size once it reports, with what it could not show', async () => {
    const page = await attachPage();
    send(page, {
      method: 'reportShowing',
      request: { showing: 'board:b1', display: { width: 3840, height: 2160 } },
    });
    send(page, {
      method: 'reportFailure',
      request: { item: 'image:https://cdn.test/a.png', reason: 'the image could not be decoded' },
    });
    const status = await vi.waitFor(async () => {
      const next = await nextStatus();
      expect(next.showing).toBe('board:b1');
      return next;
    });
    expect(status.display).toEqual({ width: 3840, height: 2160 });
    expect(status.failures).toEqual([
      {
        item: 'image:https://cdn.test/a.png',
        reason: 'the image could not be decoded',
        at: expect.any(String),
      },
    ]);

    page.close();
    const after = await vi.waitFor(async () => {
      const next = await nextStatus();
      expect(next.showing).toBe('no renderer');
      return next;
    });
    // Nothing is on screen, but what failed stays until it works.
    expect(after.display).toBeNull();
    expect(after.failures).toHaveLength(1);
  });
});
