// bench/service: request rates for notification creation and metric writes, and the time from a
// notification's POST being answered to its arrival at each of N connected devices.
// Usage: npm run bench:service -- [--clients 1000] [--notifications 50] [--seconds 5] [--database-url <url>]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { io as connect, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../src/shared/events';
import { spawnService } from '../service/service-process';
import { formatMs, quantile, throughput } from './stats';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '1000' },
    notifications: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '5' },
    'database-url': { type: 'string' },
  },
});
const CLIENTS = Number(values.clients);
const NOTIFICATIONS = Number(values.notifications);
const SECONDS = Number(values.seconds);
const TOKEN = 'bench-admin-token-0123456789';

const dataDir = await mkdtemp(join(tmpdir(), 'wallboard-bench-'));
const storeArgs = values['database-url'] ? ['--database-url', values['database-url']] : ['--data', dataDir];
const service = await spawnService(['--port', '0', '--log-level', 'error', ...storeArgs], {
  WALLBOARD_ADMIN_TOKEN: TOKEN,
});

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

try {
  const flow = await api<{ id: string }>('POST', '/flows', { tag: 'bench_cpu', variant: 'value' });
  const board = await api<{ id: string }>('POST', '/boards', { name: 'Bench' });
  await api('POST', `/boards/${board.id}/widgets`, {
    flow_id: flow.id,
    column: 0,
    row: 0,
    width: 8,
    height: 6,
  });
  const playlist = await api<{ id: string }>('POST', '/playlists', {
    name: 'Bench',
    items: [{ type: 'board', board_id: board.id, duration: 30 }],
  });

  const notificationRate = await throughput(SECONDS, 16, async () => {
    await api('POST', '/flows/bench_cpu/notifications', { title: 'Bench', message: 'rate', duration: 1 });
  });
  let value = 0;
  const metricRate = await throughput(SECONDS, 16, async () => {
    await api('PUT', '/flows/bench_cpu/metrics', { value: (value += 1) });
  });

  // N devices on the playlist, each with its own socket.
  for (let start = 0; start < CLIENTS; start += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, CLIENTS - start) }, (_, i) =>
        api('POST', '/devices', { tag: `bench-${start + i}`, playlist_id: playlist.id }),
      ),
    );
  }
  const arrivals = new Map<string, number[]>();
  const sockets: Socket<ServerToClientEvents, ClientToServerEvents>[] = [];
  for (let start = 0; start < CLIENTS; start += 100) {
    const batch = Array.from({ length: Math.min(100, CLIENTS - start) }, async (_, i) => {
      const socket: Socket<ServerToClientEvents, ClientToServerEvents> = connect(service.url, {
        transports: ['websocket'],
        auth: { token: TOKEN },
        forceNew: true,
      });
      socket.on('event', (event) => {
        if (event.type !== 'notification.created' || event.notification.title !== 'fanout') return;
        const list = arrivals.get(event.notification.id) ?? [];
        list.push(performance.now());
        arrivals.set(event.notification.id, list);
      });
      sockets.push(socket);
      await socket.emitWithAck('hello', { device_tag: `bench-${start + i}`, last_event_id: null });
    });
    await Promise.all(batch);
  }

  const delivery: number[] = [];
  const fromSent: number[] = [];
  const lastArrival: number[] = [];
  let beforeAnswer = 0;
  let lost = 0;
  for (let n = 0; n < NOTIFICATIONS; n++) {
    const sent = performance.now();
    const created = await api<{ id: string }>('POST', '/flows/bench_cpu/notifications', {
      title: 'fanout',
      message: `n${n}`,
      duration: 1,
    });
    const answered = performance.now();
    const deadline = answered + 5000;
    while ((arrivals.get(created.id)?.length ?? 0) < CLIENTS && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const arrived = arrivals.get(created.id) ?? [];
    const times = arrived.map((t) => Math.max(0, t - answered));
    fromSent.push(...arrived.map((t) => t - sent));
    beforeAnswer += arrived.filter((t) => t <= answered).length;
    lost += CLIENTS - times.length;
    delivery.push(...times);
    lastArrival.push(Math.max(...times));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  for (const socket of sockets) socket.disconnect();

  const lines = [
    `bench/service (${values['database-url'] ? 'PostgreSQL' : 'embedded store'}, ${SECONDS} s per rate, 16 concurrent requests)`,
    `notification creation: ${notificationRate.toFixed(0)} requests/s`,
    `metric writes (PUT /flows/:tag/metrics): ${metricRate.toFixed(0)} requests/s`,
    `fan-out to ${CLIENTS} sockets, ${NOTIFICATIONS} notifications, from POST answered:`,
    `  per delivery, after the answer: p50 ${formatMs(quantile(delivery, 0.5))}, p99 ${formatMs(quantile(delivery, 0.99))}` +
      ` (${beforeAnswer} of ${delivery.length} arrived before the answer did)`,
    `  per delivery, from the POST sent: p50 ${formatMs(quantile(fromSent, 0.5))}, p99 ${formatMs(quantile(fromSent, 0.99))}`,
    `  last socket of each notification: p50 ${formatMs(quantile(lastArrival, 0.5))}, p99 ${formatMs(quantile(lastArrival, 0.99))}`,
    `  deliveries missing after 5 s: ${lost}`,
    `target: p99 per delivery under 100 ms: ${quantile(delivery, 0.99) < 100 ? 'met' : 'NOT met'}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await service.stop();
  await rm(dataDir, { recursive: true, force: true });
}
