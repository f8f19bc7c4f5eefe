// PostgreSQL for the benches as it runs in production: fsync on, every commit durable (the tests'
// throwaway cluster runs with fsync off). A bench asking for it runs again under
// .ci/with-postgres.sh with WALLBOARD_PG_FSYNC=on, and says what the server's setting is.
import { spawnSync } from 'node:child_process';
import pg from 'pg';

/**
 * The URL of a throwaway PostgreSQL server with fsync on. Unless this process already runs under
 * one, runs it again under .ci/with-postgres.sh (fsync on) and exits with that run's status.
 */
export function durablePostgresServer(): string {
  const url = process.env.WALLBOARD_TEST_DATABASE_URL;
  if (url && process.env.WALLBOARD_PG_FSYNC === 'on') return url;
  // A server of the tests' (fsync off) is not reused: the script starts one of its own.
  const env: NodeJS.ProcessEnv = { ...process.env, WALLBOARD_PG_FSYNC: 'on' };
  delete env.WALLBOARD_TEST_DATABASE_URL;
  const again = spawnSync(
    'bash',
    ['.ci/with-postgres.sh', process.execPath, ...process.execArgv, ...process.argv.slice(1)],
    { stdio: 'inherit', env },
  );
  process.exit(again.status ?? 1);
}

/** The server's fsync setting ("on" or "off"), to print beside its figures. */
export async function fsyncOf(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ fsync: string }>('show fsync');
    return rows[0]?.fsync ?? 'unknown';
  } finally {
    await client.end();
  }
}
