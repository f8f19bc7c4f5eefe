// bench/media: a medium's byte ranges read as screens play a video, from the built service (its
// own process, a fresh embedded data folder) beside a bare Node static server serving the same
// file from the same disk (bench/media-floor.ts, bundled and run the same way), in rounds taken in
// turns. Ranges of R kB at random offsets, N in flight, read with the admin token and with a
// screen's token (bound to the device whose playlist plays the medium, as a screen reads it):
// ranges/s, p99 time to the last byte, and each process's CPU per range.
// Usage: npm run bench:media -- [--mb 16] [--range-kb 256] [--seconds 4] [--concurrency 4,16,64]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { apiRequest, cpuSeconds, untilHealthy } from './processes';
import { report, type Figure } from './report';
import { buildServiceIfStale, spawnBuiltService, spawnFloor, type Spawned } from './spawned';
import { quantile, throughput } from './stats';

const { values } = parseArgs({
  options: {
    mb: { type: 'string', default: '16' },
    'range-kb': { type: 'string', default: '256' },
    seconds: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '4,16,64' },
  },
});
const BYTES = Number(values.mb) * 1024 * 1024;
const RANGE = Number(values['range-kb']) * 1024;
const SECONDS = Number(values.seconds);
const IN_FLIGHT = values.concurrency.split(',').map(Number);
const TOKEN = 'bench-admin-token-0123456789';
/** Ours: the issue names no figure; a range costs little beyond its token check. */
const TARGET_OF_FLOOR = 0.7;

/** An MP4 as its content tells one (an `ftyp` box), then random bytes: a video of BYTES. */
function video(): Buffer {
  const ftyp = Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypisom\0\0\x02\0isomiso2', 'latin1'),
  ]);
  return Buffer.concat([ftyp, randomBytes(BYTES - ftyp.length)]);
}

/** The medium uploaded, in the playlist of a screen: its content's path and the screen's token. */
async function seed(url: string, content: Buffer): Promise<{ path: string; screenToken: string }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(content)], { type: 'video/mp4' }), 'bench.mp4');
  const response = await fetch(`${url}/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}` },
    body: form,
  });
  if (response.status !== 201) throw new Error(`upload: ${response.status} ${await response.text()}`);
  const medium = (await response.json()) as { url: string };
  const api = <T>(method: string, path: string, body?: unknown) =>
    apiRequest<T>(url, TOKEN, method, path, body);
  const playlist = await api<{ id: string }>('POST', '/playlists', {
    name: 'Bench video',
    items: [{ type: 'video', url: medium.url }],
  });
  await api('POST', '/devices', { tag: 'bench-screen', playlist_id: playlist.id });
  const { token } = await api<{ token: string }>('POST', '/account/tokens', {
    scope: 'affiliated',
    name: 'bench screen',
    device_tag: 'bench-screen',
  });
  return { path: medium.url, screenToken: token };
}

interface Round {
  perS: number;
  latencies: number[];
  cpuMsPerRange: number;
}

/** Random ranges of the file from `inFlight` loops for `seconds`, and the process's CPU meanwhile. */
async function round(target: Spawned, path: string, token: string | null, inFlight: number): Promise<Round> {
  const latencies: number[] = [];
  const cpuBefore = await cpuSeconds(target.child.pid ?? 0);
  const perS = await throughput(SECONDS, inFlight, async () => {
    const start = Math.floor(Math.random() * (BYTES - RANGE));
    const asked = performance.now();
    const response = await fetch(`${target.url}${path}`, {
      headers: {
        range: `bytes=${start}-${start + RANGE - 1}`,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
    const body = await response.arrayBuffer();
    if (response.status !== 206 || body.byteLength !== RANGE) {
      throw new Error(`${target.url}${path}: ${response.status}, ${body.byteLength} bytes`);
    }
    latencies.push(performance.now() - asked);
  });
  const cpu = (await cpuSeconds(target.child.pid ?? 0)) - cpuBefore;
  return { perS, latencies, cpuMsPerRange: (cpu * 1000) / latencies.length };
}

buildServiceIfStale();
const dir = await mkdtemp(join(tmpdir(), 'wallboard-bench-media-'));
const file = join(dir, 'bench.mp4');
const content = video();
await writeFile(file, content);
const service = await spawnBuiltService(['--port', '0', '--no-mdns', '--data', join(dir, 'service')], {
  WALLBOARD_ADMIN_TOKEN: TOKEN,
});
const floor = await spawnFloor({ source: 'bench/media-floor.ts', args: ['--file', file] });
const figures: Figure[] = [];
try {
  await untilHealthy(service.url, performance.now());
  const { path, screenToken } = await seed(service.url, content);
  process.stdout.write(
    [
      `bench/media: ${values.mb} MB video, random ${values['range-kb']} kB ranges, ${SECONDS} s per rate in`,
      'two rounds taken in turns; the built service (dist/service/server.mjs, a fresh embedded data folder)',
      'beside a bare Node static server serving the same file from the same disk, each bundled and run by',
      `plain Node ${process.version}.`,
      '\n',
    ].join('\n'),
  );
  for (const inFlight of IN_FLIGHT) {
    for (const [who, token] of [
      ['the admin token', TOKEN],
      ["a screen's token", screenToken],
    ] as const) {
      const ours: Round[] = [];
      const floors: Round[] = [];
      for (let n = 0; n < 2; n++) {
        floors.push(await round(floor, '/bench.mp4', null, inFlight));
        ours.push(await round(service, path, token, inFlight));
      }
      const mean = (list: Round[], pick: (one: Round) => number) =>
        list.reduce((sum, one) => sum + pick(one), 0) / list.length;
      const perS = mean(ours, (one) => one.perS);
      const floorPerS = mean(floors, (one) => one.perS);
      const p99 = (list: Round[]) =>
        quantile(
          list.flatMap((one) => one.latencies),
          0.99,
        );
      figures.push(
        {
          name: `ranges/s, ${inFlight} in flight, ${who}`,
          value: perS,
          floor: floorPerS,
          unit: '/s',
          target: `ratio >= ${TARGET_OF_FLOOR}`,
          met: perS / floorPerS >= TARGET_OF_FLOOR,
        },
        {
          name: `p99 to the last byte, ${inFlight} in flight, ${who}`,
          value: p99(ours),
          floor: p99(floors),
          unit: 'ms',
        },
        {
          name: `CPU per range, ${inFlight} in flight, ${who}`,
          value: mean(ours, (one) => one.cpuMsPerRange),
          floor: mean(floors, (one) => one.cpuMsPerRange),
          unit: 'ms',
        },
      );
    }
  }
  await report('media', figures);
} finally {
  await Promise.all([service.stop(), floor.stop()]);
  await rm(dir, { recursive: true, force: true });
}
