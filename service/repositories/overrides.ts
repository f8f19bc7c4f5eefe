import type { Selectable } from 'kysely';
import {
  overrideInForce,
  type Override,
  type OverrideCreate,
  type OverrideShown,
  type OverrideSource,
  type OverrideTarget,
} from '../../src/shared/override';
import type { Queryable } from '../db/database';
import type { OverridesTable } from '../db/schema';
import { newId } from '../ids';
import { currentVisibility, type Visibility } from '../visibility/scope';
import { iso, isoRequired } from './rows';

type OverrideRow = Selectable<OverridesTable>;

/** A screen as an override's target names it. */
type Reached = { tag: string; group_id: string | null };

/** How many ended overrides the audit list shows, newest first. */
export const OVERRIDE_HISTORY_LIMIT = 500;

function targetOf(row: OverrideRow): OverrideTarget {
  if (row.target_group_id !== null) return { group_id: row.target_group_id };
  if (row.target_device_tag !== null) return { device_tag: row.target_device_tag };
  return { all: true };
}

function shownOf(row: OverrideRow): OverrideShown {
  return {
    id: row.id,
    title: row.title,
    message: row.message,
    image_url: row.image_url,
    sound_url: row.sound_url,
    background_color: row.background_color,
    expires_at: iso(row.expires_at),
    created_at: isoRequired(row.created_at),
  };
}

function fromRow(row: OverrideRow, now: Date): Override {
  const shown = shownOf(row);
  return {
    ...shown,
    target: targetOf(row),
    created_by: row.created_by,
    source:
      row.source_feed_id === null
        ? null
        : { cap_feed_id: row.source_feed_id, cap_identifier: row.source_cap_identifier ?? '' },
    cleared_at: iso(row.cleared_at),
    cleared_by: row.cleared_by,
    active: row.cleared_at === null && overrideInForce(shown, now.getTime()),
  };
}

/** Whether a token bound to a device sees the override: one that reaches its screen. */
function reaches(visible: Visibility, row: OverrideRow): boolean {
  if (row.target_group_id !== null) return visible.group(row.target_group_id);
  if (row.target_device_tag !== null) return visible.device(row.target_device_tag);
  return true;
}

/** An override in force, as `inForce` reads them. */
export interface InForce {
  row: OverrideRow;
  shown: OverrideShown;
}

/** What a screen shows of `inForce`: the newest that reaches it (every screen, its group, itself). */
export function overrideOn(inForce: readonly InForce[], device: Reached): OverrideShown | null {
  const reaches = ({ row }: InForce) =>
    row.target_group_id !== null
      ? row.target_group_id === device.group_id
      : row.target_device_tag === null || row.target_device_tag === device.tag;
  return inForce.find(reaches)?.shown ?? null;
}

/** Emergency overrides (migration 16); a cleared one stays, as the audit list. */
export class OverrideRepository {
  constructor(private readonly db: Queryable) {}

  /** `source`: the CAP feed's alert that raised it (actions/cap-feeds.ts). */
  async create(
    input: OverrideCreate,
    at: Date,
    by: string,
    source: OverrideSource | null = null,
  ): Promise<Override> {
    const values = {
      id: newId('ovr'),
      title: input.title,
      message: input.message,
      image_url: input.image_url,
      sound_url: input.sound_url,
      background_color: input.background_color,
      target_group_id: 'group_id' in input.target ? input.target.group_id : null,
      target_device_tag: 'device_tag' in input.target ? input.target.device_tag : null,
      expires_at: input.expires_at === null ? null : new Date(input.expires_at).toISOString(),
      created_at: at.toISOString(),
      created_by: by,
      cleared_at: null,
      cleared_by: null,
      source_feed_id: source?.cap_feed_id ?? null,
      source_cap_identifier: source?.cap_identifier ?? null,
    };
    await this.db.kysely.insertInto('overrides').values(values).execute();
    return fromRow({ ...values, account_id: '' }, at);
  }

  /** The overrides in force at `now` that the caller sees, newest first. */
  async active(now: Date): Promise<Override[]> {
    const rows = await this.uncleared();
    const visible = await currentVisibility(this.db);
    return rows
      .filter((row) => reaches(visible, row))
      .map((row) => fromRow(row, now))
      .filter((override) => override.active);
  }

  /** Every override the caller sees, ended ones too, newest first (the audit list). */
  async history(now: Date): Promise<Override[]> {
    const rows = await this.db.kysely
      .selectFrom('overrides')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(OVERRIDE_HISTORY_LIMIT)
      .execute();
    const visible = await currentVisibility(this.db);
    return rows.filter((row) => reaches(visible, row)).map((row) => fromRow(row, now));
  }

  async find(id: string, now: Date): Promise<Override | null> {
    const row = await this.db.kysely
      .selectFrom('overrides')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && reaches(await currentVisibility(this.db), row) ? fromRow(row, now) : null;
  }

  /** Clears an override not cleared yet; false when there is none such. */
  async clear(id: string, at: Date, by: string): Promise<boolean> {
    const result = await this.db.kysely
      .updateTable('overrides')
      .set({ cleared_at: at.toISOString(), cleared_by: by })
      .where('id', '=', id)
      .where('cleared_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Every override a CAP feed raised, ended ones too, oldest first: what its next poll weighs. */
  async ofFeed(feedId: string, now: Date): Promise<Override[]> {
    const rows = await this.db.kysely
      .selectFrom('overrides')
      .selectAll()
      .where('source_feed_id', '=', feedId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => fromRow(row, now));
  }

  /**
   * The override a screen shows at `now`: the newest in force of those that reach it (every
   * screen, its group, or itself by tag); null when none does.
   */
  async shownOn(device: Reached, now: Date): Promise<OverrideShown | null> {
    return overrideOn(await this.inForce(now), device);
  }

  /** The overrides in force at `now`, newest first, for `overrideOn`. */
  async inForce(now: Date): Promise<InForce[]> {
    return (await this.uncleared())
      .map((row) => ({ row, shown: shownOf(row) }))
      .filter(({ shown }) => overrideInForce(shown, now.getTime()));
  }

  /** The account's overrides not cleared, newest first: few, as emergencies are. */
  private uncleared(): Promise<OverrideRow[]> {
    return this.db.kysely
      .selectFrom('overrides')
      .selectAll()
      .where('cleared_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }
}
