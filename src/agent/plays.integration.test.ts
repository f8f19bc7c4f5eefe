import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { spawnService, type ServiceProcess } from '../../service/service-process';
import type { Play, PlayReport } from '../shared/play';
import type { DeviceAgent } from './agent';
import { createNodeAgent } from './node-agent';
import { SkippableClock } from './testing/fakes';
import { nodeAgentOptions } from './testing/real-service';
import { freePort } from '../node/testing/free-ports';

// Proof of play across an outage, against the real service in its own process: what the screen
// plays while the service is down reaches it once it is back, each play once.

const ADMIN = 'plays-integration-admin-token-01';
let dir: string;
let port: number;
let service: ServiceProcess | null = null;
let agent: DeviceAgent | null = null;

async function startService(): Promise<void> {
  service = await spawnService(['--port', String(port), '--data', join(dir, 'service')], {
    WALLBOARD_ADMIN_TOKEN: ADMIN,
  });
}

async function plays(): Promise<Play[]> {
  const response = await fetch(
    `http://127.0.0.1:${port}/devices/lobby/plays?from=2026-01-01T00:00:00Z&to=2027-01-01T00:00:00Z`,
    { headers: { authorization: `Bearer ${ADMIN}` } },
  );
  if (!response.ok) throw new Error(`GET plays: ${response.status} ${await response.text()}`);
  return (await response.json()) as Play[];
}

/** The `n`th turn of 10 s of board b1, from 08:00 on a fixed day. */
function turn(n: number): PlayReport {
  const start = Date.parse('2026-11-21T08:00:00Z') + n * 10_000;
  return {
    type: 'board',
    board_id: 'brd_1',
    url: null,
    channel_id: null,
    started_at: new Date(start).toISOString(),
    ended_at: new Date(start + 10_000).toISOString(),
  };
}

const wait = (timeout = 15_000) => ({ timeout, interval: 50 });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-plays-'));
  port = await freePort();
  await startService();
});

afterEach(async () => {
  await agent?.stop();
  agent = null;
  await service?.stop('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

describe('proof of play against the real service', () => {
  it('keeps what plays during an outage, across a restart of the device, and uploads each play once', async () => {
    const clock = new SkippableClock();
    const start = () => {
      const { agent: started } = createNodeAgent(
        nodeAgentOptions({
          port,
          token: ADMIN,
          tag: 'lobby',
          name: 'Lobby',
          dataDir: join(dir, 'device'),
          heartbeatSeconds: 30,
          clock,
        }),
      );
      agent = started;
      return started;
    };
    const first = start();
    await first.start();
    await vi.waitFor(() => expect(first.getState().online).toBe(true), wait());
    for (let n = 0; n < 3; n++) first.reportPlay(turn(n));
    await clock.skip(10_000);
    await vi.waitFor(async () => expect(await plays()).toHaveLength(3), wait());

    // The service goes down; the screen plays on, and is itself restarted meanwhile.
    await service?.stop('SIGKILL');
    for (let n = 3; n < 40; n++) first.reportPlay(turn(n));
    await clock.skip(120_000);
    await first.stop();
    const second = start();
    await second.start();
    for (let n = 40; n < 50; n++) second.reportPlay(turn(n));
    await clock.skip(60_000);

    // Back: everything arrives, each play once, none twice.
    await startService();
    await vi.waitFor(async () => expect(await plays()).toHaveLength(50), wait(30_000));
    const kept = await plays();
    expect(new Set(kept.map((play) => play.id)).size).toBe(50);
    expect(kept.map((play) => play.started_at)).toEqual(
      Array.from({ length: 50 }, (_, n) => turn(n).started_at),
    );
    expect(kept.every((play) => play.seconds === 10)).toBe(true);
  }, 90_000);
});
