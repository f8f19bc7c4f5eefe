import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { spawnService, type ServiceProcess } from '../../service/service-process';
import type { BridgeMessage } from '../shared/bridge';
import type { DeviceAgent } from './agent';
import { createNodeAgent } from './node-agent';
import { SkippableClock } from './testing/fakes';
import { boardAndPlaylist, nodeAgentOptions, serviceApi, type ServiceApi } from './testing/real-service';
import { freePort } from '../node/testing/free-ports';

const ADMIN = 'agent-integration-admin-token-01';
let dir: string;
let port: number;
let service: ServiceProcess | null = null;
const agents: DeviceAgent[] = [];

const api: ServiceApi = (method, path, body) => serviceApi(port, ADMIN)(method, path, body);

async function startService(): Promise<void> {
  service = await spawnService(
    ['--port', String(port), '--data', join(dir, 'service'), '--offline-after', '3'],
    {
      WALLBOARD_ADMIN_TOKEN: ADMIN,
    },
  );
}

function startAgent(
  tag: string,
  dataDir = join(dir, tag),
  clock?: SkippableClock,
): { agent: DeviceAgent; messages: BridgeMessage[] } {
  const { agent } = createNodeAgent(
    nodeAgentOptions({ port, token: ADMIN, tag, name: `Screen ${tag}`, dataDir, heartbeatSeconds: 5, clock }),
  );
  const messages: BridgeMessage[] = [];
  agent.onMessage((message) => messages.push(message));
  agents.push(agent);
  return { agent, messages };
}

/** Waits on real time for what the service and the agent do between them. */
const wait = (timeout = 15_000) => ({ timeout, interval: 50 });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-agent-'));
  port = await freePort();
  await startService();
});

afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.stop()));
  await service?.stop('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

describe('the agent against the real service', () => {
  it('registers, shows online with a recent last_seen_date, and goes offline on quit', async () => {
    const { agent } = startAgent('lobby');
    await agent.start();
    const device = await vi.waitFor(async () => {
      const found = await api<{ online: boolean; last_seen_date: string | null }>('GET', '/devices/lobby');
      expect(found.online).toBe(true);
      return found;
    }, wait());
    expect(Date.now() - Date.parse(device.last_seen_date ?? '')).toBeLessThan(10_000);
    // No renderer is attached to this agent: its status says so.
    expect(await api('GET', '/devices/lobby/status')).toMatchObject({
      app_version: 'test',
      showing: 'no renderer',
      display: null,
      failures: [],
    });
    await agent.stop();
    expect(await api('GET', '/devices/lobby')).toMatchObject({ online: false });
  }, 60_000);

  it('is marked offline after the grace period when its process is killed', async () => {
    const child = spawn(
      process.execPath,
      [
        ...['--import', 'tsx', 'src/agent/testing/agent-process.ts'],
        ...['--server', `http://127.0.0.1:${port}`, '--token', ADMIN, '--data-dir', join(dir, 'killed')],
      ],
      {
        env: { ...process.env, WALLBOARD_TAG: 'killed', WALLBOARD_HEARTBEAT: '5' },
        stdio: 'ignore',
      },
    );
    child.unref();
    // A cold start of its own process (TypeScript compiled on the fly), maybe on a busy machine.
    await vi.waitFor(
      async () => expect((await api<{ online: boolean }>('GET', '/devices/killed')).online).toBe(true),
      wait(60_000),
    );
    child.kill('SIGKILL');
    const killedAt = Date.now();
    await vi.waitFor(
      async () => expect((await api<{ online: boolean }>('GET', '/devices/killed')).online).toBe(false),
      wait(),
    );
    // The grace period is 3 s here (--offline-after 3); heartbeats came every 5 s.
    expect(Date.now() - killedAt).toBeLessThan(15_000);
  }, 120_000);

  it('hears of a new playlist within a second', async () => {
    const { agent } = startAgent('hall');
    await agent.start();
    await vi.waitFor(() => expect(agent.getState().online).toBe(true), wait());
    const { playlistId, boardId } = await boardAndPlaylist(api, 'hall');
    const changed = Date.now();
    await api('PATCH', '/devices/hall', { playlist_id: playlistId });
    await vi.waitFor(() => expect(agent.getState().playlist?.id).toBe(playlistId), wait(5000));
    expect(Date.now() - changed).toBeLessThan(1000);
    expect(Object.keys(agent.getState().boards)).toEqual([boardId]);
  }, 60_000);

  it('keeps its state through a 30 s outage and catches up within 10 s, missing no notification', async () => {
    const { playlistId } = await boardAndPlaylist(api, 'outage');
    await api('POST', '/devices', { tag: 'outage', playlist_id: playlistId });
    const clock = new SkippableClock();
    const { agent, messages } = startAgent('outage', join(dir, 'outage'), clock);
    await agent.start();
    await vi.waitFor(() => expect(agent.getState().playlist?.id).toBe(playlistId), wait());

    await service?.stop('SIGKILL');
    await vi.waitFor(() => expect(agent.getState().online).toBe(false), wait());
    // 30 s of the agent's time (failed heartbeats, saves) pass at once; the socket keeps trying on real time.
    await clock.skip(30_000);
    expect(agent.getState()).toMatchObject({ stale: true, playlist: { id: playlistId } });

    await startService();
    const back = Date.now();
    // Posted at once, most likely before the agent is back: it must arrive by replay.
    await api('POST', '/flows/outage-cpu/notifications', { title: 'While away', message: 'replayed' });
    await api('PUT', '/flows/outage-cpu/metrics', { value: 99 });
    await vi.waitFor(
      () =>
        expect(messages).toContainEqual(
          expect.objectContaining({
            kind: 'notification',
            notification: expect.objectContaining({ title: 'While away' }),
          }),
        ),
      wait(10_000),
    );
    await vi.waitFor(
      () => expect(agent.getState()).toMatchObject({ online: true, stale: false }),
      wait(10_000),
    );
    expect(Date.now() - back).toBeLessThan(10_000);
    const widget = Object.values(agent.getState().boards)[0]?.widgets[0];
    expect(widget?.flow.data).toEqual({ value: 99 });
  }, 60_000);

  it('plays from its cache when started while the service is down', async () => {
    const { playlistId } = await boardAndPlaylist(api, 'cached');
    await api('POST', '/devices', { tag: 'cached', playlist_id: playlistId });
    const first = startAgent('cached');
    await first.agent.start();
    await vi.waitFor(() => expect(first.agent.getState().playlist?.id).toBe(playlistId), wait());
    await first.agent.stop();
    await service?.stop('SIGKILL');

    const second = startAgent('cached');
    await second.agent.start();
    expect(second.agent.getState()).toMatchObject({
      online: false,
      stale: true,
      playlist: { id: playlistId },
    });
    expect(Object.values(second.agent.getState().boards)[0]?.name).toBe('cached');
  }, 60_000);
});
