import { createHash } from 'node:crypto';
import type { ReleaseKind, ReleaseOffer, ScreenReleases } from '../../src/shared/release';

/**
 * Which release a screen is offered, per kind (docs/updates.md): its pin, else the newest rollout
 * not rolled back that reaches it, else none. Pure: the repositories read the rows.
 */

/** A screen as resolution needs it. */
export interface ScreenOfRelease {
  id: string;
  tag: string;
  group_id: string | null;
}

/** A rollout in force (not rolled back), newest first in the lists handed here. */
export interface ActiveRollout {
  id: string;
  release_id: string;
  kind: ReleaseKind;
  group_ids: readonly string[] | null;
  percentage: number | null;
}

/**
 * A screen's place in 0..99 for percentage rollouts: from its id alone, so it is the same for
 * every rollout and raising 10% to 50% keeps the first 10%.
 */
export function bucketOf(deviceId: string): number {
  return createHash('sha256').update(deviceId).digest().readUInt32BE(0) % 100;
}

export function reaches(rollout: ActiveRollout, screen: ScreenOfRelease): boolean {
  if (rollout.group_ids !== null)
    return screen.group_id !== null && rollout.group_ids.includes(screen.group_id);
  return bucketOf(screen.id) < (rollout.percentage ?? 0);
}

/** Where a screen's offer of one kind comes from. */
export type OfferSource = { release_id: string; rollout_id: string | null } | null;

/** Per kind: the pin's release, else the first of `rollouts` (newest first) that reaches the screen. */
export function resolveSources(
  screen: ScreenOfRelease,
  pins: Partial<Record<ReleaseKind, string>>,
  rollouts: readonly ActiveRollout[],
): Record<ReleaseKind, OfferSource> {
  const of = (kind: ReleaseKind): OfferSource => {
    const pinned = pins[kind];
    if (pinned !== undefined) return { release_id: pinned, rollout_id: null };
    const rollout = rollouts.find((candidate) => candidate.kind === kind && reaches(candidate, screen));
    return rollout ? { release_id: rollout.release_id, rollout_id: rollout.id } : null;
  };
  return { shell: of('shell'), web: of('web') };
}

/** Where a screen fetches a release's files (device token): `<base_url>/<name>`. */
export const releaseBaseUrl = (tag: string, releaseId: string) =>
  `/devices/${encodeURIComponent(tag)}/releases/${encodeURIComponent(releaseId)}/files`;

/** The offers of a screen, from its sources and the releases they name. */
export function offersOf(
  tag: string,
  sources: Record<ReleaseKind, OfferSource>,
  releases: ReadonlyMap<string, Omit<ReleaseOffer, 'release_id' | 'base_url'>>,
): ScreenReleases {
  const offer = (kind: ReleaseKind): ReleaseOffer | null => {
    const source = sources[kind];
    const release = source ? releases.get(source.release_id) : undefined;
    if (!source || !release) return null;
    const { kind: of, channel, version, files } = release;
    return {
      release_id: source.release_id,
      kind: of,
      channel,
      version,
      files,
      base_url: releaseBaseUrl(tag, source.release_id),
    };
  };
  return { shell: offer('shell'), web: offer('web') };
}
