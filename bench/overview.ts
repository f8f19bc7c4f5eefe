// bench/overview: the lists that grow with the fleet, at N screens. The service runs in this
// process (a fresh embedded data folder on loopback, or an empty database at --database-url) as
// users run it, its answers unchecked (production); N screens with heartbeats and screenshots,
// and one screen with P plays, are written straight into the store. Per list, R requests one
// after another over HTTP: the CPU per request (this process's, the client's reading of the bytes
// included), the wall time per request, and the longest the event loop was held during them: a
// 1 ms timer's largest delay, counted in the process's CPU time (what its own work held; the
// target) and in wall time (the machine's load included), for the worst request and the median.
// The floor, in the same run and the same process: a bare Fastify answering the same JSON, which
// it serializes whole as a user's own handler returning the array would.
// Usage: npm run bench:overview -- [--screens 10000] [--plays 10000] [--requests 20] [--database-url <url>]
import Fastify from 'fastify';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../service/app';
import { ensureToken } from '../service/bootstrap';
import { openStore } from '../service/db/open';
import { seedFleet, seedPlays, SEEDED_AT } from '../service/testing/big-fleet';
import { apiRequest } from './processes';
import { report, type Figure } from './report';
import { quantile } from './stats';

const { values } = parseArgs({
  options: {
    screens: { type: 'string', default: '10000' },
    plays: { type: 'string', default: '10000' },
    requests: { type: 'string', default: '20' },
    'database-url': { type: 'string' },
  },
});
const SCREENS = Number(values.screens);
const PLAYS = Number(values.plays);
const REQUESTS = Number(values.requests);
const TOKEN = 'bench-admin-token-0123456789';
/** The longest a request may hold the event loop (issue 30). */
const TARGET_BLOCK_MS = 20;

interface Run {
  cpuMs: number;
  wallMs: number;
  /** The longest the loop was held during the worst request, and during the median one. */
  blockMs: number;
  medianBlockMs: number;
  /** The worst request's longest delay of the loop in wall time, the machine's load included. */
  wallBlockMs: number;
  bytes: number;
}

const agent = new Agent({ keepAlive: true });

/** One GET whose body is read as bytes (what a client's parser does with them is not the service's). */
function get(base: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${base}${path}`,
      { agent, headers: { authorization: `Bearer ${TOKEN}` } },
      (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () =>
          response.statusCode === 200 ? resolve(bytes) : reject(new Error(`${path}: ${response.statusCode}`)),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/**
 * The event loop's turns, timed by a 1 ms timer: a turn that holds the loop delays the timer by
 * its length. The wall time of a delay counts the moments a busy machine gave the process no
 * core; the process's CPU time in it does not, and says what the turn's own work held.
 */
class LoopProbe {
  wallMs = 0;
  cpuMs = 0;
  private timer: NodeJS.Timeout | undefined;
  private last = { at: 0, cpu: 0 };

  start(): void {
    this.wallMs = 0;
    this.cpuMs = 0;
    this.last = this.now();
    this.timer = setInterval(() => {
      const now = this.now();
      const wall = now.at - this.last.at;
      this.wallMs = Math.max(this.wallMs, wall);
      this.cpuMs = Math.max(this.cpuMs, Math.min(wall, now.cpu - this.last.cpu));
      this.last = now;
    }, 1);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private now() {
    const { user, system } = process.cpuUsage();
    return { at: performance.now(), cpu: (user + system) / 1000 };
  }
}

/**
 * R requests one after another: their mean CPU and wall time, and the longest the loop was held
 * during the worst and the median of them.
 */
async function measure(base: string, path: string): Promise<Run> {
  await get(base, path);
  const probe = new LoopProbe();
  const holds: number[] = [];
  const wallHolds: number[] = [];
  let cpuMicros = 0;
  let wallMs = 0;
  let bytes = 0;
  for (let i = 0; i < REQUESTS; i += 1) {
    probe.start();
    const cpu = process.cpuUsage();
    const start = performance.now();
    bytes = await get(base, path);
    wallMs += performance.now() - start;
    const used = process.cpuUsage(cpu);
    probe.stop();
    cpuMicros += used.user + used.system;
    holds.push(probe.cpuMs);
    wallHolds.push(probe.wallMs);
  }
  return {
    cpuMs: cpuMicros / 1000 / REQUESTS,
    wallMs: wallMs / REQUESTS,
    blockMs: Math.max(...holds),
    medianBlockMs: quantile(holds, 0.5),
    wallBlockMs: Math.max(...wallHolds),
    bytes,
  };
}

/** A bare Fastify answering `body` at `path`, serialized whole by Fastify as a handler's return. */
async function floorOf(body: unknown): Promise<{ base: string; close: () => Promise<void> }> {
  const floor = Fastify();
  floor.get('/list', async () => body);
  await floor.listen({ port: 0, host: '127.0.0.1' });
  return {
    base: `http://127.0.0.1:${(floor.server.address() as AddressInfo).port}`,
    close: () => floor.close(),
  };
}

const dir = await mkdtemp(join(tmpdir(), 'wallboard-bench-overview-'));
const db = await openStore(
  values['database-url'] ? { databaseUrl: values['database-url'] } : { dataDir: dir },
);
await ensureToken(db, TOKEN, 'full', 'bench');
const app = await buildApp({ db, checkAnswers: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

const playlist = await apiRequest<{ id: string }>(base, TOKEN, 'POST', '/playlists', {
  name: 'Lobby',
  items: [],
});
const board = await apiRequest<{ id: string }>(base, TOKEN, 'POST', '/boards', { name: 'Lobby' });
await seedFleet(db, SCREENS, playlist.id);
await seedPlays(db, 'dev_fleet_00001', PLAYS, board.id);

const from = new Date(SEEDED_AT - (PLAYS + 1) * 60_000).toISOString();
const lists = [
  { name: `screens overview, ${SCREENS} screens`, path: '/devices?include=status' },
  { name: `devices list, ${SCREENS} screens`, path: '/devices' },
  {
    name: `plays list, ${PLAYS} plays`,
    path: `/devices/fleet-00001/plays?from=${from}&to=${new Date(SEEDED_AT).toISOString()}&limit=${PLAYS}`,
  },
];

const figures: Figure[] = [];
try {
  for (const list of lists) {
    const floor = await floorOf(await apiRequest<unknown>(base, TOKEN, 'GET', list.path));
    try {
      // One right after the other, so that the machine's load is much the same for both.
      const ours = await measure(base, list.path);
      const bare = await measure(floor.base, '/list');
      figures.push(
        {
          name: `${list.name}: longest loop hold (CPU), worst request`,
          value: ours.blockMs,
          floor: bare.blockMs,
          unit: 'ms',
          target: `< ${TARGET_BLOCK_MS} ms`,
          met: ours.blockMs < TARGET_BLOCK_MS,
        },
        {
          name: `${list.name}: longest loop hold (CPU), median request`,
          value: ours.medianBlockMs,
          floor: bare.medianBlockMs,
          unit: 'ms',
        },
        {
          name: `${list.name}: longest loop delay (wall), worst request`,
          value: ours.wallBlockMs,
          floor: bare.wallBlockMs,
          unit: 'ms',
        },
        // Context: the floor reads no store, so this ratio is not the service's to reach 1.
        { name: `${list.name}: CPU per request`, value: ours.cpuMs, floor: bare.cpuMs, unit: 'ms' },
        { name: `${list.name}: wall time per request`, value: ours.wallMs, floor: bare.wallMs, unit: 'ms' },
        { name: `${list.name}: answer`, value: ours.bytes / 1024, floor: bare.bytes / 1024, unit: 'kB' },
      );
    } finally {
      await floor.close();
    }
  }
  await report('overview', figures);
} finally {
  agent.destroy();
  await app.close();
  await db.close();
  await rm(dir, { recursive: true, force: true });
}
