import type { ReleaseKind, UpdateReport } from '../../src/shared/release';
import type { Queryable } from '../db/database';
import { fromJsonOrNull, toJson } from '../db/dialect';
import type { ActiveRollout } from '../domain/release-offers';
import { invalid } from '../domain/errors';
import { refusing } from './refusals';
import { iso, isoRequired } from './rows';

/** A rollout as stored, with its release's version and channel. */
export interface RolloutRow extends ActiveRollout {
  version: string;
  channel: 'stable' | 'beta';
  created_at: string;
  rolled_back_at: string | null;
}

export type StoredUpdateReport = UpdateReport & { reported_at: string };

/** Rollouts, pins and the screens' update reports (migration 27, docs/updates.md). */
export class RolloutRepository {
  constructor(private readonly db: Queryable) {}

  async insert(
    rollout: {
      id: string;
      release_id: string;
      kind: ReleaseKind;
      group_ids: string[] | null;
      percentage: number | null;
    },
    at: Date,
  ): Promise<void> {
    await refusing(
      this.db.kysely
        .insertInto('rollouts')
        .values({
          ...rollout,
          group_ids: rollout.group_ids === null ? null : toJson(rollout.group_ids),
          created_at: at.toISOString(),
        })
        .execute(),
      {
        foreignKey: () =>
          invalid(`release ${rollout.release_id} does not exist`, [
            { path: 'body.release_id', message: 'must name an existing release' },
          ]),
      },
    );
  }

  /** Every rollout, newest first (the order in which they apply). */
  async list(): Promise<RolloutRow[]> {
    const rows = await this.db.kysely
      .selectFrom('rollouts')
      .innerJoin('releases', 'releases.id', 'rollouts.release_id')
      .select([
        'rollouts.id',
        'rollouts.release_id',
        'rollouts.kind',
        'rollouts.group_ids',
        'rollouts.percentage',
        'rollouts.created_at',
        'rollouts.rolled_back_at',
        'releases.version',
        'releases.channel',
      ])
      .orderBy('rollouts.created_at', 'desc')
      .orderBy('rollouts.id', 'desc')
      .execute();
    return rows.map((row) => ({
      ...row,
      group_ids: fromJsonOrNull<string[]>(row.group_ids),
      created_at: isoRequired(row.created_at),
      rolled_back_at: iso(row.rolled_back_at),
    }));
  }

  /** The rollouts in force (not rolled back), newest first. */
  async active(): Promise<RolloutRow[]> {
    return (await this.list()).filter((rollout) => rollout.rolled_back_at === null);
  }

  async find(id: string): Promise<RolloutRow | null> {
    return (await this.list()).find((rollout) => rollout.id === id) ?? null;
  }

  async setPercentage(id: string, percentage: number): Promise<void> {
    await this.db.kysely.updateTable('rollouts').set({ percentage }).where('id', '=', id).execute();
  }

  async rollBack(id: string, at: Date): Promise<void> {
    await this.db.kysely
      .updateTable('rollouts')
      .set({ rolled_back_at: at.toISOString() })
      .where('id', '=', id)
      .where('rolled_back_at', 'is', null)
      .execute();
  }

  /** Pins by screen tag, then kind. */
  async pins(tag?: string): Promise<Map<string, Partial<Record<ReleaseKind, string>>>> {
    let query = this.db.kysely.selectFrom('release_pins').select(['device_tag', 'kind', 'release_id']);
    if (tag !== undefined) query = query.where('device_tag', '=', tag);
    const pins = new Map<string, Partial<Record<ReleaseKind, string>>>();
    for (const row of await query.execute())
      pins.set(row.device_tag, { ...pins.get(row.device_tag), [row.kind]: row.release_id });
    return pins;
  }

  async pin(tag: string, kind: ReleaseKind, releaseId: string, at: Date): Promise<void> {
    await this.unpin(tag, kind);
    await this.db.kysely
      .insertInto('release_pins')
      .values({ device_tag: tag, kind, release_id: releaseId, created_at: at.toISOString() })
      .execute();
  }

  /** Whether there was a pin to remove. */
  async unpin(tag: string, kind: ReleaseKind): Promise<boolean> {
    const deleted = await this.db.kysely
      .deleteFrom('release_pins')
      .where('device_tag', '=', tag)
      .where('kind', '=', kind)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  }

  /** Keeps a screen's report as its last of the kind. */
  async report(tag: string, report: UpdateReport, at: Date): Promise<void> {
    await this.db.kysely
      .deleteFrom('update_reports')
      .where('device_tag', '=', tag)
      .where('kind', '=', report.kind)
      .execute();
    await this.db.kysely
      .insertInto('update_reports')
      .values({ device_tag: tag, ...report, reported_at: at.toISOString() })
      .execute();
  }

  /** The last reports by screen tag, then kind. */
  async reports(tag?: string): Promise<Map<string, Partial<Record<ReleaseKind, StoredUpdateReport>>>> {
    let query = this.db.kysely
      .selectFrom('update_reports')
      .select(['device_tag', 'kind', 'version', 'outcome', 'detail', 'reported_at']);
    if (tag !== undefined) query = query.where('device_tag', '=', tag);
    const reports = new Map<string, Partial<Record<ReleaseKind, StoredUpdateReport>>>();
    for (const { device_tag, reported_at, ...report } of await query.execute())
      reports.set(device_tag, {
        ...reports.get(device_tag),
        [report.kind]: { ...report, reported_at: isoRequired(reported_at) },
      });
    return reports;
  }
}
