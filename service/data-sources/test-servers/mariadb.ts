import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import mysql, { type Connection } from 'mysql2/promise';

/**
 * A throwaway MariaDB server (Debian's `mariadbd`) for tests, end-to-end runs and benches: its
 * data in a temporary folder, listening on 127.0.0.1 on a free port, with one database and a user
 * that signs in with a password (the grant tables are on, so credentials are really checked).
 */
export interface TestMariadb {
  /** `mysql://wallboard@127.0.0.1:<port>/wallboard`: the password is apart, as a source keeps it. */
  url: string;
  password: string;
  /** Runs SQL as the server's root, in the database (several statements allowed): for seeding. */
  query(sql: string): Promise<unknown>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

const SERVER_PATHS = ['/usr/sbin/mariadbd', '/usr/bin/mariadbd'];
const INSTALL_PATHS = ['/usr/bin/mariadb-install-db', '/usr/sbin/mariadb-install-db'];
const DATABASE = 'wallboard';
const USER = 'wallboard';
const READY_MS = 30_000;

const found = (paths: readonly string[]) => paths.find((path) => existsSync(path)) ?? null;

/** Null when a MariaDB server can be started here, else why not (the tests skip with it). */
export function mariadbMissing(): string | null {
  return found(SERVER_PATHS) && found(INSTALL_PATHS)
    ? null
    : 'MariaDB tests skipped: no MariaDB server is installed (apt-get install mariadb-server)';
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Root's connection over the server's socket, once it answers. */
async function whenReady(child: ChildProcess, socketPath: string, logPath: string): Promise<Connection> {
  const until = Date.now() + READY_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const log = await readFile(logPath, 'utf8').catch(() => '');
      throw new Error(`mariadbd stopped at start:\n${log.slice(-2000)}`);
    }
    try {
      // Root has no password and answers on the socket only: the port is for the test user.
      return await mysql.createConnection({ socketPath, user: 'root', multipleStatements: true });
    } catch (error) {
      if (Date.now() > until) {
        throw new Error(`mariadbd did not answer in ${READY_MS / 1000} s`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Starts a server (about a second): install its system tables, start it, make the database and user. */
export async function startMariadb(): Promise<TestMariadb> {
  const server = found(SERVER_PATHS);
  const install = found(INSTALL_PATHS);
  if (!server || !install) throw new Error(mariadbMissing() ?? 'no MariaDB');
  const dir = await mkdtemp(join(tmpdir(), 'wallboard-mariadb-'));
  let child: ChildProcess | null = null;
  try {
    const data = join(dir, 'data');
    // mariadbd refuses to run as root unless told to be it; any other user runs as itself.
    const user = userInfo().username;
    const installed = spawnSync(
      install,
      [
        '--no-defaults',
        `--datadir=${data}`,
        `--user=${user}`,
        '--skip-test-db',
        '--skip-name-resolve',
        '--auth-root-authentication-method=normal',
      ],
      { encoding: 'utf8' },
    );
    if (installed.status !== 0)
      throw new Error(`mariadb-install-db failed:\n${installed.stdout}${installed.stderr}`);
    const port = await freePort();
    const socketPath = join(dir, 'mariadb.sock');
    const logPath = join(dir, 'error.log');
    child = spawn(
      server,
      [
        '--no-defaults',
        `--datadir=${data}`,
        `--user=${user}`,
        '--bind-address=127.0.0.1',
        `--port=${port}`,
        `--socket=${socketPath}`,
        `--pid-file=${join(dir, 'mariadb.pid')}`,
        `--log-error=${logPath}`,
        '--skip-name-resolve',
        '--skip-log-bin',
        // Small and fast: a test's tables are tiny and nothing needs to outlive the run.
        '--innodb-buffer-pool-size=16M',
        '--innodb-log-file-size=8M',
        '--innodb-flush-log-at-trx-commit=0',
        '--performance-schema=off',
      ],
      { stdio: 'ignore' },
    );
    const root = await whenReady(child, socketPath, logPath);
    const password = randomBytes(12).toString('hex');
    await root.query(
      `CREATE DATABASE ${DATABASE}; CREATE USER '${USER}'@'%' IDENTIFIED BY '${password}';` +
        ` GRANT ALL ON ${DATABASE}.* TO '${USER}'@'%'; USE ${DATABASE}`,
    );
    const running = child;
    // Should the process end without stop() (a failed hook, an interrupted run), the server and
    // its folder go with it rather than outliving it.
    const reap = () => {
      running.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    };
    process.once('exit', reap);
    return {
      url: `mysql://${USER}@127.0.0.1:${port}/${DATABASE}`,
      password,
      async query(sql) {
        const [result] = await root.query(sql);
        return result;
      },
      async stop() {
        process.off('exit', reap);
        await root.end().catch(() => undefined);
        running.kill('SIGTERM');
        await exited(running);
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    child?.kill('SIGKILL');
    if (child) await exited(child);
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
