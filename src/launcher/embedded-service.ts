import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createDevice, updateDevice } from '../../service/actions/devices';
import { createSignInCode, signInLink } from '../../service/actions/sign-in-codes';
import { createUser, listUsers } from '../../service/actions/users';
import { buildApp } from '../../service/app';
import { ensureToken } from '../../service/bootstrap';
import type { ServiceContext } from '../../service/context';
import type { Database } from '../../service/db/database';
import { openStore } from '../../service/db/open';
import { secretsKey } from '../../service/domain/secret-box';
import { generatePassword } from '../../service/domain/passwords';
import { stopService } from '../../service/graceful-exit';
import { DeviceRepository } from '../../service/repositories/devices';
import { PlaylistRepository } from '../../service/repositories/playlists';
import { seedDemo } from '../../service/scripts/demo';
import type { Logger } from '../agent/ports';
import { listenOnChosenPort, type PortWish } from '../node/port-choice';

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
  /** A one-time link that signs the demo admin in to the console (15 minutes), when there is an admin. */
  consoleLink?: string;
  /** Why it is not on the port wanted (another program has that one), when it is not. */
  portNote?: string | null;
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

/** The console's demo admin, made when the store has no user at all. */
export const DEMO_LOGIN = 'demo';

/**
 * The admin the console link signs in: `demo`, made with a random password nobody ever sees
 * when the store has no user yet (the link is the way in), else the first admin there is.
 */
async function consoleAdmin(db: Database): Promise<string | null> {
  let users = await listUsers(db);
  if (users.length === 0) {
    await createUser(db, { login: DEMO_LOGIN, password: generatePassword(), role: 'admin' });
    users = await listUsers(db);
  }
  const admins = users.filter((user) => user.role === 'admin');
  return (admins.find((user) => user.login === DEMO_LOGIN) ?? admins[0])?.login ?? null;
}

/**
 * Gives the screen `npm start` shows the first playlist of the service, unless it has one: the
 * demo must be on screen without anyone assigning it, and an operator's choice is kept. Through
 * the service's own actions, so the device hears of it as of any other change.
 */
export async function showDemoOnDevice(ctx: ServiceContext, deviceTag: string): Promise<string | null> {
  const [first] = await new PlaylistRepository(ctx.db).list();
  if (!first) return null;
  const device = await new DeviceRepository(ctx.db).findByTag(deviceTag);
  if (!device) {
    await createDevice(ctx, { tag: deviceTag, name: deviceTag, description: '', playlist_id: first.id });
    return first.id;
  }
  if (device.playlist_id !== null) return device.playlist_id;
  await updateDevice(ctx, deviceTag, { playlist_id: first.id });
  return first.id;
}

/**
 * The service in this process, on a loopback port (`port`: by default any free one; `npm start`
 * asks for the one of its last start), with its store in `dataDir` (so the demo is seeded once
 * and survives restarts) and the demo content.
 */
export async function startEmbeddedService(options: {
  dataDir: string;
  deviceTag: string;
  log: Logger;
  /** Null: no demo content (tests). */
  seeder?: DemoSeeder | null;
  port?: PortWish;
}): Promise<EmbeddedService> {
  const { dataDir, deviceTag, log } = options;
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const token = await adminToken(dataDir);
  const db = await openStore({ dataDir: join(dataDir, 'store') });
  try {
    await ensureToken(db, token, 'full', 'npm start');
    const app = await buildApp({
      db,
      logger: { level: 'error' },
      config: {
        mediaDir: join(dataDir, 'store', 'media'),
        secretsKey: await secretsKey({ dataDir: join(dataDir, 'store') }),
      },
    });
    const seeder = options.seeder === undefined ? seedDemo : options.seeder;
    if (seeder) await seeder(app.wallboard, { deviceTag });
    const playlist = await showDemoOnDevice(app.wallboard, deviceTag);
    if (playlist) log.info(`device "${deviceTag}" shows playlist ${playlist}`);
    const { port, note } = await listenOnChosenPort(
      options.port ?? { requested: 0, byDefault: 0, flag: '--service-port' },
      async (wanted) => {
        await app.listen({ port: wanted, host: '127.0.0.1' });
        const address = app.server.address();
        return typeof address === 'object' && address ? address.port : wanted;
      },
    );
    const url = `http://127.0.0.1:${port}`;
    const admin = await consoleAdmin(db);
    const code = admin ? await createSignInCode(db, admin, new Date()) : null;
    return {
      url,
      token,
      ...(code ? { consoleLink: signInLink(url, code) } : {}),
      portNote: note,
      close: () => stopService(app, db),
    };
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
}
