// The web player as the agent's update coordinator sees it (src/agent/update-ports.ts): the
// coordinator decides when; this downloads into the versions folder and, at install, tries the
// new version beside the one on screen (web-releases.ts).
import { ConfigError } from '../agent/config';
import type { Fetch, Logger } from '../agent/ports';
import { releaseFileUrl } from '../agent/update-files';
import {
  UpdateRolledBack,
  type InstallResult,
  type ReleaseSource,
  type UpdateTarget,
} from '../agent/update-ports';
import type { ReleaseOffer } from '../shared/release';
import { DEFAULT_HEALTH_TIMEOUT_MS, WebReleases } from './web-releases';
import { WebVersions } from './web-versions';

export function webUpdateTarget(releases: WebReleases, fetch: Fetch): UpdateTarget {
  return {
    kind: 'web',
    currentVersion: () => releases.liveVersion().version,
    async download(offer: ReleaseOffer, source: ReleaseSource, signal: AbortSignal): Promise<void> {
      await releases.prepare(offer, (_offer, file) =>
        fetch(releaseFileUrl(source.baseUrl, file.name), {
          headers: { authorization: `Bearer ${source.token}` },
          signal,
        }),
      );
    },
    async install(offer: ReleaseOffer): Promise<InstallResult> {
      const result = await releases.trial(offer);
      // Not healthy within the timeout: the page never left the version it showed.
      if (result.outcome === 'rolled_back') throw new UpdateRolledBack(result.detail);
      if (result.outcome === 'failed') throw new Error(result.detail);
      return 'installed';
    },
  };
}

/** The environment variable that sets the health timeout, in seconds (default 180). */
export const HEALTH_TIMEOUT_ENV = 'WALLBOARD_WEB_HEALTH_TIMEOUT';

/** The health timeout the environment asks for, or the default; a bad value is an error. */
export function healthTimeoutMs(env: Record<string, string | undefined>): number {
  const value = env[HEALTH_TIMEOUT_ENV];
  if (value === undefined || value === '') return DEFAULT_HEALTH_TIMEOUT_MS;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600)
    throw new ConfigError(
      `${HEALTH_TIMEOUT_ENV} must be a whole number of seconds from 1 to 3600, not "${value}"`,
    );
  return seconds * 1000;
}

/**
 * The versions folder of a web player's data folder, opened, the releases it serves from and the
 * update target the agent is given: what `npm run start:web` and `npm start` set up.
 */
export async function openWebReleases(options: {
  dataDir: string;
  /** dist/renderer, the built-in version. */
  rendererDir: string;
  appVersion: string;
  log: Logger;
  fetch?: Fetch;
  healthTimeoutMs?: number;
}): Promise<{ releases: WebReleases; target: UpdateTarget }> {
  const versions = new WebVersions(options.dataDir, options.rendererDir, options.appVersion);
  await versions.open();
  const releases = new WebReleases({
    versions,
    log: options.log,
    ...(options.healthTimeoutMs === undefined ? {} : { healthTimeoutMs: options.healthTimeoutMs }),
  });
  const fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  return { releases, target: webUpdateTarget(releases, fetch) };
}
