import type { ShowingReport } from '../shared/bridge';
import { MAX_FAILURES, type Display, type Failure } from '../shared/device';
import type { Clock } from './ports';

/** What a heartbeat says is on screen while no renderer is attached (or none has reported yet). */
export const NO_RENDERER = 'no renderer';

/** A failure is reported until its item works again, or for this long after it last failed. */
export const FAILURE_KEPT_MS = 60 * 60 * 1000;

const ITEM_MAX = 2048;
const REASON_MAX = 1024;

/** The download that a shown `image:` or `video:` item needed worked too. */
function mediaOf(showing: string): string | null {
  const match = /^(?:image|video):(.+)$/s.exec(showing);
  return match ? `media:${match[1]}` : null;
}

/**
 * What the screen shows, its size and what it could not show, as the renderer and the agent's
 * own units report them; the heartbeats read it at each beat. It outlives the agent's sessions
 * with the service (pairing makes a new one), so nothing the renderer said is lost to a change
 * of session. A failure stays in every heartbeat until its item downloads or shows, or an hour
 * after it last failed: the status then tells what is still wrong, not just what went wrong in
 * the last 30 s.
 */
/**
 * What kind of thing a report says is on screen: an item counts as the playlist in force, so the
 * items' turns are not news for the service, but a switch of playlist, the power going off, an
 * override or nothing to play is (agent.ts beats at once then: the console says what the screen
 * shows within seconds, not at the next heartbeat).
 */
export function showingMode(showing: string, playlistId: string | null): string {
  return /^(board|image|video|web):/.test(showing) ? `playlist:${playlistId ?? ''}` : showing;
}

export class ScreenStatus {
  private showing = NO_RENDERER;
  private display: Display | null = null;
  /** By item, oldest first: a failure that happens again moves to the end. */
  private readonly failures = new Map<string, { reason: string; at: number }>();

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  /** A renderer's report, or the web player's `no renderer` once its last page is gone. */
  reportShowing(report: ShowingReport): void {
    this.showing = report.showing;
    this.display = report.display ?? null;
    if (report.showing === NO_RENDERER) return;
    this.succeeded(report.showing);
    const media = mediaOf(report.showing);
    if (media) this.succeeded(media);
  }

  recordFailure(item: string, reason: string): void {
    const key = item.slice(0, ITEM_MAX);
    this.failures.delete(key);
    this.failures.set(key, { reason: reason.slice(0, REASON_MAX), at: this.clock.now() });
    for (const oldest of this.failures.keys()) {
      if (this.failures.size <= MAX_FAILURES) break;
      this.failures.delete(oldest);
    }
  }

  /** The item works now: its failure is no longer reported. */
  succeeded(item: string): void {
    this.failures.delete(item.slice(0, ITEM_MAX));
  }

  snapshot(): { showing: string; display: Display | null; failures: Failure[] } {
    const now = this.clock.now();
    const failures: Failure[] = [];
    for (const [item, { reason, at }] of this.failures) {
      if (now - at > FAILURE_KEPT_MS) this.failures.delete(item);
      else failures.push({ item, reason, at: new Date(at).toISOString() });
    }
    return { showing: this.showing, display: this.display, failures: failures.reverse() };
  }
}
