// Which version of the renderer the web player's page shows, and the trial of a new one. The page
// at the top (renderer/src/version-swap.ts) follows an event stream of this state: it loads the
// version on trial in a full-screen frame it keeps transparent, and shows it (in one frame) once
// the server says it is the version on screen, which is once it reported what it shows; a version
// that does not within the health timeout is dropped, the one on screen never having left.
import type { ServerResponse } from 'node:http';
import type { ShowingReport } from '../shared/bridge';
import type { WebVersionEntry, WebVersionsState } from '../shared/web-bridge-protocol';
import type { ReleaseOffer } from '../shared/release';
import { BUILT_IN, type FetchReleaseFile, type WebVersion, type WebVersions } from './web-versions';

/** The health timeout when none is configured: a new version has this long to show something. */
export const DEFAULT_HEALTH_TIMEOUT_MS = 3 * 60_000;

/** How an update of the web player ended; null from `apply` when there was nothing to do. */
export interface WebApplyResult {
  outcome: 'installed' | 'failed' | 'rolled_back';
  detail: string;
}

/** Who a bridge socket belongs to: the page on screen, the version on trial, or one on its way out. */
export type PageRole = 'live' | 'trial' | 'stale';

/** How a trial ended: the page showed something, it did not in time, or the player stopped. */
type Settled = { showing: ShowingReport } | { failed: string } | { stopped: true };

interface Trial {
  version: WebVersion;
  offer: ReleaseOffer;
  startedAt: number;
  settle(how: Settled): void;
}

export interface WebReleasesOptions {
  versions: WebVersions;
  /** How long a new version has to report what it shows (DEFAULT_HEALTH_TIMEOUT_MS). */
  healthTimeoutMs?: number;
  log: { info(message: string): void; warn(message: string): void };
  now?: () => number;
}

/** The path prefix each version is served under: `/v/<label>/`. */
export const VERSION_PREFIX = '/v/';

export function versionUrl(label: string): string {
  return `${VERSION_PREFIX}${encodeURIComponent(label)}/`;
}

/** The version label of a page's path (`/v/<label>/...`), or null for a page not under one. */
export function labelOfPage(pathname: string | null): string | null {
  if (!pathname?.startsWith(VERSION_PREFIX)) return null;
  const segment = pathname.slice(VERSION_PREFIX.length).split('/')[0] ?? '';
  try {
    return decodeURIComponent(segment) || null;
  } catch {
    return null;
  }
}

export class WebReleases {
  private live: WebVersion;
  /** The version on trial, and how to end its trial. */
  private onTrial: Trial | null = null;
  /** Versions downloaded and verified, waiting for their trial. */
  private readonly prepared = new Map<string, WebVersion>();
  /** The event streams of the pages that follow the versions. */
  private readonly followers = new Set<ServerResponse>();
  private readonly healthTimeoutMs: number;
  private readonly now: () => number;

  constructor(private readonly options: WebReleasesOptions) {
    this.live = options.versions.current();
    this.healthTimeoutMs = options.healthTimeoutMs ?? DEFAULT_HEALTH_TIMEOUT_MS;
    this.now = options.now ?? Date.now;
  }

  /** The version on screen (what `current` names once its trial is over). */
  liveVersion(): WebVersion {
    return this.live;
  }

  /** The folder a version label is served from, while the page may ask for it. */
  folderOf(label: string): string | null {
    if (label === this.live.label) return this.live.dir;
    if (label === this.onTrial?.version.label) return this.onTrial.version.dir;
    return this.options.versions.folderOf(label);
  }

  state(): WebVersionsState {
    const entry = (version: WebVersion): WebVersionEntry => ({
      label: version.label,
      version: version.version,
      url: versionUrl(version.label),
    });
    return { live: entry(this.live), trial: this.onTrial ? entry(this.onTrial.version) : null };
  }

  /** A page's event stream (WEB_VERSIONS_EVENTS_PATH): the state now, then every change. */
  follow(response: ServerResponse): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    });
    this.followers.add(response);
    response.on('close', () => this.followers.delete(response));
    response.write(`retry: 1000\ndata: ${JSON.stringify(this.state())}\n\n`);
  }

  /** Who a page of this label is: a page not under a version (an older renderer) is the live one. */
  roleOf(label: string | null): PageRole {
    if (label === null || label === this.live.label) return 'live';
    if (label === this.onTrial?.version.label) return 'trial';
    return 'stale';
  }

  /**
   * The page on trial reported what it shows: it becomes the page on screen (the top page shows it)
   * and its reports count from now on. True when it was promoted, so the report is the host's.
   */
  trialShowing(label: string, report: ShowingReport): boolean {
    const trial = this.onTrial;
    if (!trial || trial.version.label !== label) return false;
    this.onTrial = null;
    this.live = trial.version;
    this.broadcast();
    trial.settle({ showing: report });
    return true;
  }

  /**
   * Downloads and verifies the offered version (web-versions.ts), then tries it (`trial`). Null
   * when there is nothing to do: the offer is on screen already, or failed here before.
   */
  async apply(offer: ReleaseOffer, fetchFile: FetchReleaseFile): Promise<WebApplyResult | null> {
    if (offer.version === this.live.version && this.live.label !== BUILT_IN) return null;
    if (this.options.versions.hasFailed(offer)) return null;
    try {
      await this.prepare(offer, fetchFile);
    } catch (error) {
      return { outcome: 'failed', detail: `download refused: ${(error as Error).message}` };
    }
    return this.trial(offer);
  }

  /** Downloads and verifies the offered version into the versions folder; nothing on screen changes. */
  async prepare(offer: ReleaseOffer, fetchFile: FetchReleaseFile): Promise<void> {
    if (this.onTrial?.version.version === offer.version)
      throw new Error(`version ${offer.version} is on trial now`);
    // Only the newest offer is kept waiting: one downloaded before it will not be tried.
    for (const waiting of [...this.prepared.keys()]) {
      if (waiting === offer.version) continue;
      this.prepared.delete(waiting);
      await this.options.versions.discard(waiting);
    }
    this.prepared.set(offer.version, await this.options.versions.download(offer, fetchFile));
  }

  /**
   * Puts a prepared version on trial in the page, and waits for it to report what it shows: then
   * it is the version served (`installed`); else it is dropped and the page stays on the one it
   * showed (`rolled_back`), and that offer is not tried again here.
   */
  async trial(offer: ReleaseOffer): Promise<WebApplyResult> {
    const { versions, log } = this.options;
    if (this.onTrial) throw new Error(`version ${this.onTrial.version.version} is on trial already`);
    const version = this.prepared.get(offer.version);
    if (!version) throw new Error(`version ${offer.version} was not downloaded`);
    this.prepared.delete(offer.version);
    const before = this.live;
    const startedAt = this.now();
    const settled = new Promise<Settled>((resolve) => {
      const timer = setTimeout(
        () =>
          resolve({
            failed: `version ${offer.version} did not report what it shows within ${this.healthTimeoutMs / 1000} s`,
          }),
        this.healthTimeoutMs,
      );
      this.onTrial = {
        version,
        offer,
        startedAt,
        settle: (how) => {
          clearTimeout(timer);
          resolve(how);
        },
      };
    });
    log.info(`web player: trying version ${offer.version} beside ${before.version}`);
    this.broadcast();
    const how = await settled;
    if ('showing' in how) {
      await versions.activate(version.label);
      const detail = `version ${offer.version} shows "${how.showing.showing}" after ${Math.round((this.now() - startedAt) / 100) / 10} s; ${before.version} kept for fallback`;
      log.info(`web player: ${detail}`);
      return { outcome: 'installed', detail };
    }
    this.onTrial = null;
    this.broadcast();
    // Stopped: not the version's fault, so it may be tried again at the next start.
    if ('stopped' in how) return { outcome: 'failed', detail: 'the web player stopped during the trial' };
    await versions.reject(offer);
    const detail = `${how.failed}; back on ${before.version}`;
    log.warn(`web player: ${detail}`);
    return { outcome: 'rolled_back', detail };
  }

  /** Ends the event streams (the server closes). */
  close(): void {
    this.onTrial?.settle({ stopped: true });
    for (const follower of this.followers) follower.end();
    this.followers.clear();
  }

  private broadcast(): void {
    const event = `data: ${JSON.stringify(this.state())}\n\n`;
    for (const follower of this.followers) follower.write(event);
  }
}
