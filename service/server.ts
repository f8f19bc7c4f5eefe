// The service's command line: `npm run service -- --help`.
import { closeOnSignals } from '../src/node/close-on-signals';
import { logOptions } from '../src/node/log-options';
import { checkAccount, runAccountCommand } from './account-commands';
import { DEFAULT_ACCOUNT_ID, withAccount } from './accounts/scope';
import { buildApp } from './app';
import { ensureToken } from './bootstrap';
import { HELP, parseCommand, type Command } from './cli-options';
import type { Database } from './db/database';
import { openStore } from './db/open';
import { secretsKey } from './domain/secret-box';
import { stopService } from './graceful-exit';
import { hashSecret, newSecret } from './http/auth';
import { TokenRepository } from './repositories/tokens';
import { runStoreCommand } from './store-commands';
import { runUserCommand } from './user-commands';

/** The commands that act on the store and end; what they print. */
async function runStoreCommandOn(
  command: Extract<Command, { kind: 'token-create' | 'user' | 'account' }>,
  db: Database,
): Promise<string> {
  if (command.kind === 'account') return runAccountCommand(command, db);
  // Without --account a user is found by login in every account (several with it: the command
  // asks for --account); one is made in one.
  if (
    command.kind === 'user' &&
    command.action !== 'create' &&
    (command.action === 'list' || command.accountId === undefined)
  )
    return runUserCommand(command, db, process.stdin);
  const { accountId } = command;
  await checkAccount(db, accountId);
  return withAccount(accountId ?? DEFAULT_ACCOUNT_ID, async () => {
    if (command.kind === 'user') return runUserCommand(command, db, process.stdin);
    const secret = newSecret();
    await new TokenRepository(db).create({
      scope: command.scope,
      name: command.name,
      secretHash: hashSecret(secret),
      deviceTag: command.deviceTag,
    });
    return `${secret}\n`;
  });
}

async function run(command: Command): Promise<void> {
  if (command.kind === 'help') {
    process.stdout.write(HELP);
    return;
  }
  if (command.kind === 'backup' || command.kind === 'restore') {
    process.stdout.write(await runStoreCommand(command));
    return;
  }
  const db = await openStore({
    ...command.store,
    // On stderr: `token create` prints only the secret on stdout.
    onImported: (counts) =>
      process.stderr.write(
        `imported the older version's store of ${command.store.dataDir}: ${Object.entries(counts)
          .map(([table, count]) => `${count} ${table}`)
          .join(', ')}\n`,
      ),
  });
  if (command.kind !== 'serve') {
    try {
      process.stdout.write(await runStoreCommandOn(command, db));
    } finally {
      await db.close();
    }
    return;
  }
  const adminToken = process.env.WALLBOARD_ADMIN_TOKEN;
  if (adminToken) await ensureToken(db, adminToken, 'full', 'WALLBOARD_ADMIN_TOKEN');
  const key = await secretsKey(command.store);
  if (!key) {
    process.stderr.write(
      "scripts' secrets are kept as written in PostgreSQL: set WALLBOARD_SECRETS_KEY (32 bytes, base64) on every node to seal them (docs/scripts.md#secrets)\n",
    );
  }
  const app = await buildApp({
    db,
    config: { ...command.config, secretsKey: key },
    logger: logOptions('service', command.logLevel),
    ...(command.mdns ? { mdns: {} } : {}),
  });
  closeOnSignals(() => stopService(app, db, command.drainSeconds * 1000), {
    info: (line) => app.log.info(line),
    error: (line) => app.log.error(line),
  });
  await app.listen({ port: command.port, host: command.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : command.port;
  const where = command.store.databaseUrl ? 'PostgreSQL' : `the embedded store in ${command.store.dataDir}`;
  // Scripts and tests that start the service on port 0 read the port from this line.
  process.stdout.write(`Wallboard service listening on http://${command.host}:${port} (${where})\n`);
}

let command: Command;
try {
  command = parseCommand(process.argv.slice(2));
} catch (error) {
  console.error(`wallboard service: ${(error as Error).message}`);
  process.exit(2);
}
run(command).catch((error: unknown) => {
  console.error(`wallboard service: ${(error as Error).message}`);
  process.exit(1);
});
