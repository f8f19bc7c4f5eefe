import type { ClientConfig } from '../agent/config';
import { createNodeAgent } from '../agent/node-agent';
import type { Logger, SystemInfo } from '../agent/ports';
import { startWebPlayerServer } from '../web-player/web-player-server';

export interface WebPlayer {
  url: string;
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
  port: number;
  appVersion: string;
  log: Logger;
  system?: SystemInfo;
}): Promise<WebPlayer> {
  const { config, dataDir, rendererDir, port, appVersion, log, system } = options;
  const { agent } = createNodeAgent({
    config,
    dataDir,
    mediaBaseUrl: '/media/',
    appVersion,
    log,
    ...(system ? { system } : {}),
  });
  await agent.start();
  try {
    const server = await startWebPlayerServer({
      host: agent,
      rendererDir,
      mediaDir: config.cacheDir,
      port,
      log,
    });
    return {
      url: server.url,
      recordRecovery: (what) => agent.recordRecovery(what),
      async close() {
        await server.close();
        await agent.stop();
      },
    };
  } catch (error) {
    await agent.stop();
    throw error;
  }
}
