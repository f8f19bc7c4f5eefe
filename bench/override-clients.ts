// The screens of bench/overrides, in a process of their own: real screens are not in the service's
// process, and thousands of sockets and their requests must not make the bench's own process the
// bottleneck. Each screen is a socket.io client on WebSocket connected with its own token, saying
// hello as its device so that the service puts it in its device's rooms; on every `device.changed`
// it fetches `GET /devices/:tag/settings` with that token, as the agent resyncs on any such event
// (src/agent/sync.ts), and notes the time the answer first carries what the bench expects.
// Over its IPC channel (JSON messages):
//   the bench sends {tokens: [...]}        it opens its screens: {ready: n}
//   the bench sends {expect: {key, title}} the next answer to note: the override titled so, or
//                                          none (title null); it answers {expecting: key}, and
//                                          {complete: key} once every screen noted it
//   the bench sends {report: key}          {key, times, failures}: when each screen noted it, in
//                                          ms of the epoch (performance.timeOrigin + now: one
//                                          clock for every process of the machine)
// No reconnection: a socket the service drops is a screen that misses the override.
// Usage: node bench/override-clients.ts --url <url> --prefix <tag> --first <n> --count <n>
import { parseArgs } from 'node:util';
import { io as connect } from 'socket.io-client';
import type { BenchSocket } from './fanout';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    prefix: { type: 'string', default: 'screen' },
    first: { type: 'string', default: '0' },
    count: { type: 'string', default: '500' },
  },
});
const { url, prefix } = values;
if (!url || !process.send) throw new Error('--url is required, and an IPC channel to the bench');
const first = Number(values.first);
const count = Number(values.count);

type Message = { tokens: string[] } | { expect: { key: string; title: string | null } } | { report: string };
interface Settings {
  override: { title: string } | null;
}

const send = (message: object) => process.send?.(message);
const epochNow = () => performance.timeOrigin + performance.now();
let expected: { key: string; title: string | null } | null = null;
/** When each screen (by index) noted the expected answer. */
let noted = new Map<number, number>();
let failures = 0;

/** What the agent does on `device.changed`: its settings again, with its own token. */
async function fetchSettings(tag: string, token: string): Promise<Settings | null> {
  try {
    const response = await fetch(`${url}/devices/${tag}/settings`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!response.ok) {
      await response.arrayBuffer();
      failures += 1;
      return null;
    }
    return (await response.json()) as Settings;
  } catch {
    failures += 1;
    return null;
  }
}

async function onChanged(index: number, tag: string, token: string): Promise<void> {
  // The expectation this request answers is the one in force when it was sent.
  const asked = expected;
  const settings = await fetchSettings(tag, token);
  if (!asked || !settings || asked !== expected || noted.has(index)) return;
  const shows = settings.override === null ? null : settings.override.title;
  if (shows !== asked.title) return;
  noted.set(index, epochNow());
  if (noted.size === count) send({ complete: asked.key });
}

async function open(index: number, token: string): Promise<BenchSocket> {
  const tag = `${prefix}-${first + index}`;
  const socket: BenchSocket = connect(url as string, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    auth: { token },
  });
  socket.on('event', (event) => {
    // The agent resyncs on any event but metrics, notifications and commands; these are all
    // a screen hears here.
    if (event.type === 'device.changed') void onChanged(index, tag, token);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect_error', reject);
    socket.once('connect', () => resolve());
  });
  const ack = await socket.emitWithAck('hello', { device_tag: tag, last_event_id: null });
  if (ack.error) throw new Error(`hello of ${tag}: ${ack.error}`);
  // A first start resyncs (the service answers resync: true): the screen fetches its settings
  // once, which also opens the HTTP connection it keeps, as a screen that heartbeats does.
  if (!(await fetchSettings(tag, token))) throw new Error(`GET /devices/${tag}/settings failed`);
  return socket;
}

process.on('message', (message: Message) => {
  if ('tokens' in message) {
    void (async () => {
      const { tokens } = message;
      // 100 at a time, as bench/fanout.ts opens its audience: a burst of thousands of handshakes
      // is not what is measured here.
      for (let start = 0; start < count; start += 100) {
        const batch = Array.from({ length: Math.min(100, count - start) }, (_, i) => start + i);
        await Promise.all(batch.map((index) => open(index, tokens[index] ?? '')));
      }
      failures = 0;
      send({ ready: count });
    })().catch((error: unknown) => {
      process.stderr.write(`override-clients: ${(error as Error).message}\n`);
      process.exit(1);
    });
  } else if ('expect' in message) {
    expected = message.expect;
    noted = new Map();
    failures = 0;
    send({ expecting: message.expect.key });
  } else if ('report' in message) {
    send({ key: message.report, times: [...noted.values()], failures });
  }
});
// The bench gone (or done): so are its screens.
process.once('disconnect', () => process.exit(0));
