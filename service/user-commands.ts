// `npm run service -- user …`: the people who sign in to the console, managed from the shell
// (the first admin has nobody to create it over HTTP).
import { text } from 'node:stream/consumers';
import { createSignInCode, signInLink } from './actions/sign-in-codes';
import { createUser, deleteUser, listUsersOfEveryAccount, setPassword } from './actions/users';
import type { UserCommand } from './cli-commands';
import type { Database } from './db/database';
import { generatePassword } from './domain/passwords';

/** The password from stdin (its first line, so `echo secret |` works), or a new one to print. */
async function passwordOf(
  passwordStdin: boolean,
  stdin: NodeJS.ReadableStream,
): Promise<{ password: string; generated: boolean }> {
  if (!passwordStdin) return { password: generatePassword(), generated: true };
  const password = (await text(stdin)).split(/\r?\n/, 1)[0] ?? '';
  return { password, generated: false };
}

/** Carries out the command; what to print on stdout. */
export async function runUserCommand(
  command: UserCommand,
  db: Database,
  stdin: NodeJS.ReadableStream,
  now = new Date(),
): Promise<string> {
  switch (command.action) {
    case 'create': {
      const { password, generated } = await passwordOf(command.passwordStdin, stdin);
      const user = await createUser(db, { login: command.login, role: command.role, password });
      return generated
        ? `created ${user.role} ${user.login}; password (shown once): ${password}\n`
        : `created ${user.role} ${user.login}\n`;
    }
    case 'list':
      return (await listUsersOfEveryAccount(db))
        .map((user) => `${user.login}\t${user.role}\t${user.created_at}\t${user.account_id}\n`)
        .join('');
    case 'delete':
      await deleteUser(db, command.login);
      return `deleted ${command.login}\n`;
    case 'password': {
      const { password, generated } = await passwordOf(command.passwordStdin, stdin);
      await setPassword(db, command.login, password, now);
      return generated
        ? `new password of ${command.login} (shown once): ${password}\n`
        : `set the password of ${command.login}\n`;
    }
    case 'link': {
      const code = await createSignInCode(db, command.login, now);
      return `${signInLink(command.origin, code)}\n`;
    }
  }
}
