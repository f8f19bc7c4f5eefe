import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildApp } from '../../service/app';
import { ensureToken } from '../../service/bootstrap';
import type { ServiceContext } from '../../service/context';
import { openStore } from '../../service/db/open';
import { stopService } from '../../service/graceful-exit';
import { seedDemo } from '../../service/scripts/demo';
import type { Logger } from '../agent/ports';

/**
 * What seeds the demo content: `seedDemo(ctx)` of service/scripts/demo.ts by default. It also
 * receives the tag of the screen `npm start` shows, should it want to set the device up itself;
 * otherwise showDemoOnDevice below gives the device the first playlist.
 */
export type DemoSeeder = (ctx: ServiceContext, options: { deviceTag: string }) => unknown;

export interface EmbeddedService {
  url: string;
  /** A full-scope token of this service, kept in <dataDir>/admin-token (mode 0600). */
  token: string;
  close(): Promise<void>;
}

async function adminToken(dataDir: string): Promise<string> {
  const file = join(dataDir, 'admin-token');
  const stored = await readFile(file, 'utf8').catch(() => '');
  if (stored.trim().length >= 16) return stored.trim();
  const token = randomBytes(24).toString('base64url');
  const handle = await open(file, 'w', 0o600);
  try {
    await handle.writeFile(`${token}\n`);
  } finally {
    await handle.close();
  }
  return token;
}

async function api(url: string, token: string, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
}

/**
 * Gives the screen `npm start` shows the first playlist of the service, unless it has one: the
 * demo must be on screen without anyone assigning it, and an operator's choice is kept.
 */
export async function showDemoOnDevice(
  url: string,
  token: string,
  deviceTag: string,
): Promise<string | null> {
  const playlists = (await (await api(url, token, '/playlists')).json()) as { id: string }[];
  const first = playlists[0]?.id;
  if (!first) return null;
  const device = await api(url, token, `/devices/${encodeURIComponent(deviceTag)}`);
  if (device.status === 404) {
    await api(url, token, '/devices', {
      method: 'POST',
      body: JSON.stringify({ tag: deviceTag, name: deviceTag, playlist_id: first }),
    });
    return first;
  }
  const current = (await device.json()) as { playlist_id: string | null };
  if (current.playlist_id !== null) return current.playlist_id;
  await api(url, token, `/devices/${encodeURIComponent(deviceTag)}`, {
    method: 'PATCH',
    body: JSON.stringify({ playlist_id: first }),
  });
  return first;
}

/**
 * The service in this process, on a free loopback port, with its store in `dataDir` (so the demo
 * is seeded once and survives restarts) and the demo content.
 */
export async function startEmbeddedService(options: {
  dataDir: string;
  deviceTag: string;
  log: Logger;
  /** Null: no demo content (tests). */
  seeder?: DemoSeeder | null;
}): Promise<EmbeddedService> {
  const { dataDir, deviceTag, log } = options;
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const token = await adminToken(dataDir);
  const db = await openStore({ dataDir: join(dataDir, 'store') });
  try {
    await ensureToken(db, token, 'full', 'npm start');
    const app = await buildApp({ db, logger: { level: 'error' } });
    const seeder = options.seeder === undefined ? seedDemo : options.seeder;
    if (seeder) await seeder(app.wallboard, { deviceTag });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const url = `http://127.0.0.1:${port}`;
    const playlist = await showDemoOnDevice(url, token, deviceTag);
    if (playlist) log.info(`device "${deviceTag}" shows playlist ${playlist}`);
    return {
      url,
      token,
      close: () => stopService(app, db),
    };
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
}
