import os from 'node:os';
import { join } from 'node:path';
import { DeviceAgent, type AgentDeps } from './agent';
import { defaultTag, resolveConfig, type ClientConfig, type Credential } from './config';
import { settingsFromEnv } from './flags';
import { FileStore } from './file-store';
import { MediaCache } from './media-cache';
import { bonjourBrowser, connectSocketIo, nodeSystemInfo, realClock } from './node-edges';
import { NodeCacheFiles } from './node-cache-files';
import type { Clock, Fetch, Logger, ServiceBrowser, SystemInfo } from './ports';
import { TileCache } from './tile-cache';

/** Where a device keeps its state: `$XDG_DATA_HOME/wallboard`, else `~/.local/share/wallboard`. */
export function defaultDataDir(env: Record<string, string | undefined> = process.env): string {
  return join(env.XDG_DATA_HOME || join(os.homedir(), '.local', 'share'), 'wallboard');
}

const SETTINGS_KEY = 'settings';

/** The settings file's store: only its user may read it, since a paired screen's token is kept there. */
function settingsStore(dataDir: string): FileStore {
  return new FileStore(join(dataDir, 'settings'), undefined, 0o600);
}

/** The settings stored in `<dataDir>/settings/settings.json`, unvalidated (resolveConfig checks them). */
export function readStoredSettings(dataDir: string): Promise<unknown> {
  return settingsStore(dataDir).read(SETTINGS_KEY);
}

/**
 * The agent's configuration from flags, environment and the settings file
 * (`<dataDir>/settings/settings.json`), highest first, then the defaults. The service and token
 * may be missing: the agent then finds a service and pairs.
 */
export async function loadAgentConfig(
  flags: Record<string, string | undefined>,
  dataDir: string,
  system: SystemInfo = nodeSystemInfo,
): Promise<ClientConfig> {
  const stored = await readStoredSettings(dataDir);
  return resolveConfig(
    { flags, env: settingsFromEnv(process.env), stored },
    {
      tag: defaultTag(await system.machineId().catch(() => os.hostname())),
      name: await system.hostname(),
      cacheDir: join(dataDir, 'media'),
    },
  );
}

/**
 * Keeps a paired screen's credential in its settings file (service, token and device tag, beside
 * what else is stored there), so that its next start needs no pairing: the web player's way.
 */
export function settingsCredentialSaver(dataDir: string): (credential: Credential) => Promise<void> {
  const store = settingsStore(dataDir);
  return async ({ server, token, tag }) => {
    const stored = await store.read(SETTINGS_KEY);
    const kept = typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? stored : {};
    await store.write(SETTINGS_KEY, { ...kept, server, token, tag });
  };
}

export interface NodeAgentOptions {
  config: ClientConfig;
  dataDir: string;
  /** Where the renderer loads cached media from. */
  mediaBaseUrl: string;
  appVersion: string;
  log: Logger;
  fetch?: Fetch;
  system?: SystemInfo;
  /** The agent's time; tests skip its waiting. */
  clock?: Clock;
  /** Keeps a credential got by pairing; by default in the settings file of `dataDir`. */
  saveCredential?: (credential: Credential) => Promise<void>;
  /** Looks for services on the network when none is configured; mDNS by default. */
  browser?: ServiceBrowser;
  /** The system's time zone, for schedules without one; the runtime's by default. */
  systemTimeZone?: () => string;
  /** Full-screen web pages the shell draws itself, and the fetch that reads pages' headers (AgentDeps). */
  webPages?: AgentDeps['webPages'];
  pageFetch?: Fetch;
  /** Where the renderer loads map tiles from (AgentDeps.tileUrlTemplate), served from the returned `tiles`. */
  tileUrlTemplate?: string;
  /** What applies releases of each kind (AgentDeps.updateTargets): the shell's updater, the web bundle's. */
  updateTargets?: AgentDeps['updateTargets'];
}

/** A device agent with the real edges of a Node process: the one factory Electron and the web player share. */
export function createNodeAgent(options: NodeAgentOptions): {
  agent: DeviceAgent;
  media: MediaCache;
  tiles: TileCache;
} {
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
  // Beside the media files, in a folder of its own (the media cache lists plain files only).
  const tiles = new TileCache({
    dir: join(options.config.cacheDir, 'tiles'),
    fetch,
    now: () => clock.now(),
    log: options.log,
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
      saveCredential: options.saveCredential ?? settingsCredentialSaver(options.dataDir),
      browser: options.browser ?? bonjourBrowser(options.log),
      systemTimeZone: options.systemTimeZone,
      webPages: options.webPages,
      pageFetch: options.pageFetch,
      tileUrlTemplate: options.tileUrlTemplate,
      tiles,
      updateTargets: options.updateTargets,
    },
    options.config,
  );
  return { agent, media, tiles };
}
