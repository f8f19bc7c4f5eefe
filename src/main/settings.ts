import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { settingsSchema, type Settings } from '../agent/config';
import { FileStore } from '../agent/file-store';
import type { Logger } from '../agent/ports';

const SETTINGS_KEY = 'settings';
const SHELL_KEY = 'shell';
const RECOVERIES_KEY = 'pending-recoveries';

const shellFlagsSchema = z.object({ disable_gpu: z.boolean().default(false) });
export type ShellFlags = z.infer<typeof shellFlagsSchema>;

const recoveriesSchema = z.array(z.string()).catch([]);

/** What the command line may leave behind for the next start (the token goes to token-store.ts). */
export type RememberedSettings = Omit<Settings, 'token'>;

/**
 * The shell's small documents in `<userData>/settings` (the same folder and `settings` key the
 * agent's own loader reads): the agent settings given on a command line, the shell's flags, and
 * recoveries that a restart interrupted. FileStore falls back to the last good copy of a damaged
 * file, so a power cut during a write does not lose the configuration.
 */
export class ShellSettings {
  private readonly store: FileStore;

  constructor(
    private readonly dir: string,
    log: Logger,
  ) {
    this.store = new FileStore(dir, (key, reason) =>
      log.warn(`the stored ${key} was damaged (${reason}); using its last good copy`),
    );
  }

  /** The stored agent settings, unvalidated: resolveConfig validates them and names the layer. */
  readSettings(): Promise<unknown> {
    return this.store.read(SETTINGS_KEY);
  }

  /** Merges settings given on a command line into the stored ones, so autostart needs no flags. */
  async remember(settings: RememberedSettings): Promise<void> {
    const given = Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
    if (Object.keys(given).length === 0) return;
    const stored = settingsSchema.omit({ token: true }).safeParse(await this.readSettings());
    await this.store.write(SETTINGS_KEY, { ...(stored.success ? stored.data : {}), ...given });
  }

  async readFlags(): Promise<ShellFlags> {
    return parseFlags(await this.store.read(SHELL_KEY));
  }

  async setGpuDisabled(disabled: boolean): Promise<void> {
    await this.store.write(SHELL_KEY, { ...(await this.readFlags()), disable_gpu: disabled });
  }

  /** A recovery to report after the restart it causes (this process will not send another heartbeat). */
  async addPendingRecovery(what: string): Promise<void> {
    const pending = recoveriesSchema.parse(await this.store.read(RECOVERIES_KEY));
    await this.store.write(RECOVERIES_KEY, [...pending, what].slice(-20));
  }

  async takePendingRecoveries(): Promise<string[]> {
    const pending = recoveriesSchema.parse(await this.store.read(RECOVERIES_KEY));
    if (pending.length > 0) await this.store.write(RECOVERIES_KEY, []);
    return pending;
  }
}

function parseFlags(value: unknown): ShellFlags {
  const parsed = shellFlagsSchema.safeParse(value ?? {});
  return parsed.success ? parsed.data : { disable_gpu: false };
}

/**
 * The shell flags, read synchronously: hardware acceleration can only be turned off before the
 * app is ready, which an asynchronous read could miss. Reads FileStore's files the way it does:
 * the main file, else its last good copy.
 */
export function readShellFlagsSync(dir: string): ShellFlags {
  const file = join(dir, `${SHELL_KEY}.json`);
  for (const candidate of [file, `${file}.bak`]) {
    try {
      return parseFlags(JSON.parse(readFileSync(candidate, 'utf8')));
    } catch {
      // Missing or damaged: try the backup, then the defaults.
    }
  }
  return { disable_gpu: false };
}
