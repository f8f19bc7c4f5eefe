import type { ReleaseKind, Rollout, ScreenReleases } from '../../src/shared/release';
import type { Queryable } from '../db/database';
import { fromJsonOrNull } from '../db/dialect';
import { offersOf, resolveSources, type OfferSource, type ScreenOfRelease } from '../domain/release-offers';
import { ReleaseRepository } from './releases';
import { RolloutRepository } from './rollouts';

/** A screen with where each kind of its offer comes from, and the shell version it last reported. */
export interface ScreenSources {
  screen: ScreenOfRelease;
  sources: Record<ReleaseKind, OfferSource>;
  app_version: string | null;
}

const appVersionOf = (diagnostics: string | null): string | null => {
  const version = fromJsonOrNull<{ app_version?: unknown }>(diagnostics)?.app_version;
  return typeof version === 'string' ? version : null;
};

/** Reads what each screen is offered (domain/release-offers.ts: pin, else newest rollout reaching it). */
export class ReleaseOffersReader {
  constructor(private readonly db: Queryable) {}

  /** Every screen of the account (or the one `tag`), with its sources. */
  async sources(tag?: string): Promise<ScreenSources[]> {
    let query = this.db.kysely.selectFrom('devices').select(['id', 'tag', 'group_id', 'diagnostics']);
    if (tag !== undefined) query = query.where('tag', '=', tag);
    const devices = await query.orderBy('tag').execute();
    if (devices.length === 0) return [];
    const rollouts = new RolloutRepository(this.db);
    const active = await rollouts.active();
    const pins = await rollouts.pins(tag);
    return devices.map((device) => {
      const screen = { id: device.id, tag: device.tag, group_id: device.group_id ?? null };
      return {
        screen,
        sources: resolveSources(screen, pins.get(device.tag) ?? {}, active),
        app_version: appVersionOf(device.diagnostics),
      };
    });
  }

  /** What the screen `tag` is offered; null when there is no such screen. */
  async offersOf(tag: string): Promise<ScreenReleases | null> {
    const [one] = await this.sources(tag);
    if (!one) return null;
    const ids = [one.sources.shell?.release_id, one.sources.web?.release_id].filter((id) => id !== undefined);
    const releases = await new ReleaseRepository(this.db).findMany(ids);
    return offersOf(tag, one.sources, releases);
  }

  /** Per screen tag, the releases it is offered (`shell/web` ids): compared before and after a write. */
  async snapshot(): Promise<Map<string, string>> {
    return new Map(
      (await this.sources()).map(({ screen, sources }) => [
        screen.tag,
        `${sources.shell?.release_id ?? ''}/${sources.web?.release_id ?? ''}`,
      ]),
    );
  }
}

/** The screens whose offers differ between two snapshots. */
export function changedScreens(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): string[] {
  return [...after].filter(([tag, offered]) => before.get(tag) !== offered).map(([tag]) => tag);
}

/**
 * Every rollout, newest first, with its progress over the screens it is in force on now: on its
 * version by their last update report (or, for the shell, their heartbeat's `app_version`),
 * failed by a report of `failed` or `rolled_back` for its version, pending otherwise.
 */
export async function rolloutsWithProgress(db: Queryable): Promise<Rollout[]> {
  const rollouts = await new RolloutRepository(db).list();
  if (rollouts.length === 0) return [];
  const screens = await new ReleaseOffersReader(db).sources();
  const reports = await new RolloutRepository(db).reports();
  return rollouts.map(({ version, channel, ...rollout }) => {
    const progress = { targeted: 0, on_version: 0, failed: 0, pending: 0 };
    for (const { screen, sources, app_version } of screens) {
      if (sources[rollout.kind]?.rollout_id !== rollout.id) continue;
      progress.targeted += 1;
      const report = reports.get(screen.tag)?.[rollout.kind];
      const reported = report?.version === version ? report.outcome : null;
      if (reported === 'installed' || (rollout.kind === 'shell' && app_version === version))
        progress.on_version += 1;
      else if (reported === 'failed' || reported === 'rolled_back') progress.failed += 1;
      else progress.pending += 1;
    }
    return {
      ...rollout,
      version,
      channel,
      group_ids: rollout.group_ids ? [...rollout.group_ids] : null,
      progress,
    };
  });
}
