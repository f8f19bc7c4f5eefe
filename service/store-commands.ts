// `npm run service -- backup <file>` and `restore <file>`: the embedded store's file, copied out
// of a running service or put back into a stopped one.
import { resolve } from 'node:path';
import type { Command } from './cli-options';
import { lockDataFolder } from './db/embedded';
import { backupStore, restoreStore } from './db/sqlite-files';

type StoreCommand = Extract<Command, { kind: 'backup' | 'restore' }>;

/** Carries out the command; what to print. */
export async function runStoreCommand(command: StoreCommand, now = new Date()): Promise<string> {
  const file = resolve(command.file);
  if (command.kind === 'backup') {
    await backupStore(command.dataDir, file);
    return `backed up the store of ${command.dataDir} to ${file}\n`;
  }
  // Refused while a service uses the folder: the lock says so, naming its process.
  const unlock = await lockDataFolder(command.dataDir);
  try {
    const kept = await restoreStore(command.dataDir, file, now);
    return `restored ${file} as the store of ${command.dataDir}${kept ? `; the store it replaced is ${kept}` : ''}\n`;
  } finally {
    await unlock();
  }
}
