import os from 'node:os';
import { join } from 'node:path';
import { DeviceAgent } from './agent';
import { defaultTag, resolveConfig, type AgentConfig } from './config';
import { settingsFromEnv } from './flags';
import { FileStore } from './file-store';
import { MediaCache } from './media-cache';
import { connectSocketIo, nodeSystemInfo, realClock } from './node-edges';
import { NodeCacheFiles } from './node-cache-files';
import type { Clock, Fetch, Logger, SystemInfo } from './ports';

/** Where a device keeps its state: `$XDG_DATA_HOME/wallboard`, else `~/.local/share/wallboard`. */
export function defaultDataDir(env: Record<string, string | undefined> = process.env): string {
  return join(env.XDG_DATA_HOME || join(os.homedir(), '.local', 'share'), 'wallboard');
}

/**
 * The agent's configuration from flags, environment and the settings file
 * (`<dataDir>/settings/settings.json`), highest first, then the defaults.
 */
export async function loadAgentConfig(
  flags: Record<string, string | undefined>,
  dataDir: string,
  system: SystemInfo = nodeSystemInfo,
): Promise<AgentConfig> {
  const stored = await new FileStore(join(dataDir, 'settings')).read('settings');
  return resolveConfig(
    { flags, env: settingsFromEnv(process.env), stored },
    {
      tag: defaultTag(await system.machineId().catch(() => os.hostname())),
      name: await system.hostname(),
      cacheDir: join(dataDir, 'media'),
    },
  );
}

export interface NodeAgentOptions {
  config: AgentConfig;
  dataDir: string;
  /** Where the renderer loads cached media from. */
  mediaBaseUrl: string;
  appVersion: string;
  log: Logger;
  fetch?: Fetch;
  system?: SystemInfo;
  /** The agent's time; tests skip its waiting. */
  clock?: Clock;
}

/** A device agent with the real edges of a Node process: the one factory Electron and the web player share. */
export function createNodeAgent(options: NodeAgentOptions): { agent: DeviceAgent; media: MediaCache } {
  const fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const clock = options.clock ?? realClock;
  const store = new FileStore(join(options.dataDir, 'state'), (key, reason) =>
    options.log.warn(`the stored ${key} was damaged (${reason}); using the last good copy`),
  );
  const media = new MediaCache({
    files: new NodeCacheFiles(options.config.cacheDir),
    fetch,
    store,
    clock,
    log: options.log,
    limitBytes: options.config.cacheLimitBytes,
  });
  const agent = new DeviceAgent(
    {
      fetch,
      connectRealtime: connectSocketIo,
      clock,
      store,
      system: options.system ?? nodeSystemInfo,
      media,
      log: options.log,
      random: Math.random,
      appVersion: options.appVersion,
      mediaBaseUrl: options.mediaBaseUrl,
    },
    options.config,
  );
  return { agent, media };
}
