import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Store from 'electron-store';
import { z } from 'zod';
import { settingsSchema, type Settings } from '../agent/config';
import type { Logger } from '../agent/ports';

const SETTINGS_KEY = 'settings';
const SHELL_KEY = 'shell';
const RECOVERIES_KEY = 'pending-recoveries';
/** The store's file in the settings folder, and its copy as it was after the last good write. */
const STORE_NAME = 'shell-settings';
const LAST_GOOD_NAME = 'shell-settings.last-good';

const shellFlagsSchema = z.object({ disable_gpu: z.boolean().default(false) });
export type ShellFlags = z.infer<typeof shellFlagsSchema>;

const recoveriesSchema = z.array(z.string()).catch([]);

/** What the command line may leave behind for the next start (the token goes to token-store.ts). */
export type RememberedSettings = Omit<Settings, 'token'>;

type Documents = Partial<Record<typeof SETTINGS_KEY | typeof SHELL_KEY | typeof RECOVERIES_KEY, unknown>>;
type Warn = (message: string) => void;

/**
 * Opens the store (electron-store: written atomically and flushed, by its `atomically`). A file it
 * cannot read (a disk that lost flushed data, a hand edit gone wrong) is replaced by the copy kept
 * after the last good write, or, failing that, started afresh: the screen must come up either way.
 */
function openStore(dir: string, warn: Warn): Store<Documents> {
  const open = () => new Store<Documents>({ cwd: dir, name: STORE_NAME, clearInvalidConfig: false });
  try {
    return open();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    rmSync(join(dir, `${STORE_NAME}.json`), { force: true });
    const store = open();
    const lastGood = openLastGood(dir);
    if (lastGood.size > 0) {
      store.store = lastGood.store;
      warn(`the stored settings were damaged (${reason}); using their last good copy`);
    } else {
      warn(`the stored settings were damaged (${reason}) and no good copy was left; starting without them`);
    }
    return store;
  }
}

/** The last good copy: one that is damaged itself reads as empty (and is rewritten at the next write). */
function openLastGood(dir: string): Store<Documents> {
  return new Store<Documents>({ cwd: dir, name: LAST_GOOD_NAME, clearInvalidConfig: true });
}

/**
 * The files of the settings folder before electron-store kept it (FileStore: one JSON file a
 * key, and its `.bak`), taken over once so that an upgraded screen keeps its configuration.
 */
function importEarlierFiles(store: Store<Documents>, dir: string): void {
  if (store.size > 0) return;
  for (const key of [SETTINGS_KEY, SHELL_KEY, RECOVERIES_KEY] as const) {
    for (const file of [join(dir, `${key}.json`), join(dir, `${key}.json.bak`)]) {
      try {
        store.set(key, JSON.parse(readFileSync(file, 'utf8')));
        break;
      } catch {
        // Missing or damaged: the backup, then nothing.
      }
    }
  }
}

/**
 * The shell's small documents in `<userData>/settings`: the agent settings given on a command
 * line, the shell's flags, and recoveries that a restart interrupted. electron-store keeps them
 * in one file; a copy of it after each good write is the fallback should it ever be unreadable.
 */
export class ShellSettings {
  private readonly store: Store<Documents>;
  private readonly lastGood: Store<Documents>;

  constructor(dir: string, log: Logger) {
    this.store = openStore(dir, (message) => log.warn(message));
    importEarlierFiles(this.store, dir);
    this.lastGood = openLastGood(dir);
    this.keepLastGood();
  }

  /** The stored agent settings, unvalidated: resolveConfig validates them and names the layer. */
  async readSettings(): Promise<unknown> {
    return this.store.get(SETTINGS_KEY);
  }

  /** Merges settings given on a command line into the stored ones, so autostart needs no flags. */
  async remember(settings: RememberedSettings): Promise<void> {
    const given = Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
    if (Object.keys(given).length === 0) return;
    const stored = settingsSchema.omit({ token: true }).safeParse(await this.readSettings());
    this.write(SETTINGS_KEY, { ...(stored.success ? stored.data : {}), ...given });
  }

  async readFlags(): Promise<ShellFlags> {
    return parseFlags(this.store.get(SHELL_KEY));
  }

  async setGpuDisabled(disabled: boolean): Promise<void> {
    this.write(SHELL_KEY, { ...(await this.readFlags()), disable_gpu: disabled });
  }

  /** A recovery to report after the restart it causes (this process will not send another heartbeat). */
  async addPendingRecovery(what: string): Promise<void> {
    const pending = recoveriesSchema.parse(this.store.get(RECOVERIES_KEY));
    this.write(RECOVERIES_KEY, [...pending, what].slice(-20));
  }

  async takePendingRecoveries(): Promise<string[]> {
    const pending = recoveriesSchema.parse(this.store.get(RECOVERIES_KEY));
    if (pending.length > 0) this.write(RECOVERIES_KEY, []);
    return pending;
  }

  private write(key: keyof Documents, value: unknown): void {
    this.store.set(key, value);
    this.keepLastGood();
  }

  /** The store as it is now, known good (it was just written or read), as the fallback. */
  private keepLastGood(): void {
    if (this.store.size > 0) this.lastGood.store = this.store.store;
  }
}

function parseFlags(value: unknown): ShellFlags {
  const parsed = shellFlagsSchema.safeParse(value ?? {});
  return parsed.success ? parsed.data : { disable_gpu: false };
}

/**
 * The shell flags, read synchronously: hardware acceleration can only be turned off before the
 * app is ready, which an asynchronous read could miss. electron-store reads synchronously anyway.
 */
export function readShellFlagsSync(dir: string, log: Pick<Logger, 'warn'>): ShellFlags {
  const store = openStore(dir, (message) => log.warn(message));
  importEarlierFiles(store, dir);
  return parseFlags(store.get(SHELL_KEY));
}
