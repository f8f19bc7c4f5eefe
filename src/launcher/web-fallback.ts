import type { ClientConfig } from '../agent/config';
import { createNodeAgent } from '../agent/node-agent';
import type { Logger, SystemInfo } from '../agent/ports';
import { listenOnChosenPort, type PortWish } from '../node/port-choice';
import { openWebReleases } from '../web-player/web-update-target';
import { startWebPlayerServer, type WebPlayerServer } from '../web-player/web-player-server';

export interface WebPlayer {
  url: string;
  /** Why it is not on the port wanted (another program has that one), when it is not. */
  portNote?: string | null;
  /** A recovery of the kiosk around the player (its browser restarted), for the next heartbeat. */
  recordRecovery(what: string): void;
  close(): Promise<void>;
}

/**
 * The device agent headless and the player served to a browser: what `npm start` runs where
 * there is no Electron runtime (as `npm run start:web` does on its own).
 */
export async function startWebPlayer(options: {
  config: ClientConfig;
  dataDir: string;
  rendererDir: string;
  port: PortWish;
  appVersion: string;
  log: Logger;
  system?: SystemInfo;
  /** How long a new version of the renderer has to show something (web-releases.ts). */
  healthTimeoutMs?: number;
}): Promise<WebPlayer> {
  const { config, dataDir, rendererDir, port, appVersion, log, system } = options;
  // The renderer's versions (dist/renderer built in, and the releases the service sends), served
  // through a shell page that swaps them without a reload.
  const { releases, target } = await openWebReleases({
    dataDir,
    rendererDir,
    appVersion,
    log,
    ...(options.healthTimeoutMs === undefined ? {} : { healthTimeoutMs: options.healthTimeoutMs }),
  });
  const { agent } = createNodeAgent({
    config,
    dataDir,
    mediaBaseUrl: '/media/',
    appVersion,
    log,
    updateTargets: [target],
    ...(system ? { system } : {}),
  });
  await agent.start();
  // Started again on the next port when one is taken: a failed start leaves nothing behind.
  const started: { server?: WebPlayerServer } = {};
  try {
    const { note } = await listenOnChosenPort(port, async (wanted) => {
      started.server = await startWebPlayerServer({
        host: agent,
        rendererDir,
        releases,
        mediaDir: config.cacheDir,
        port: wanted,
        log,
      });
      return Number(new URL(started.server.url).port);
    });
    const { server } = started;
    if (!server) throw new Error('the web player did not start');
    return {
      url: server.url,
      portNote: note,
      recordRecovery: (what) => agent.recordRecovery(what),
      async close() {
        await server.close();
        await agent.stop();
      },
    };
  } catch (error) {
    await started.server?.close();
    await agent.stop();
    throw error;
  }
}
