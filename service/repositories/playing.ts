import type { Playing } from '../../src/shared/playing';
import type { PlaylistItem } from '../../src/shared/playlist';
import type { Queryable } from '../db/database';
import { fromJson } from '../db/dialect';
import { playingOf, type Catalogue, type ScreenFacts } from '../domain/playing';
import { resolveScreenSettings } from '../domain/screen-settings';
import { OverrideRepository, overrideOn, type InForce } from './overrides';
import { iso } from './rows';
import { ScreenSettingsRepository } from './screen-settings';

/** The settings of a screen deleted since its page was read: nothing set. */
const UNSET = {
  settings: resolveScreenSettings(
    { playlist_id: null, schedule: null, power: null, rotation: null, time_zone: null },
    null,
  ),
  reportedTimeZone: null,
};

/** Read once per request (PlayingReader.prepare). */
export interface Prepared {
  now: Date;
  overrides: InForce[];
  catalogue: Catalogue;
}

/** A screen as the overview has it: enough to tell what it reports. */
export interface ScreenSeen {
  id: string;
  tag: string;
  group_id: string | null;
  online: boolean;
  /** Its last heartbeat's `showing`, and when that was received. */
  showing: string | null;
  last_seen_date: string | null;
}

/**
 * Reads what domain/playing.ts needs to tell what screens should show and whether they do: the
 * account's playlists and boards once (`catalogue`), then per page of screens their settings,
 * overrides and wake commands in a few queries, however many screens the page has.
 */
export class PlayingReader {
  constructor(private readonly db: Queryable) {}

  /** What every screen's answer needs: the account's playlists, boards and overrides in force. */
  async prepare(now: Date): Promise<Prepared> {
    const [playlists, boards, overrides] = await Promise.all([
      this.db.kysely.selectFrom('playlists').select(['id', 'name', 'items']).execute(),
      this.db.kysely.selectFrom('boards').select(['id', 'name']).execute(),
      new OverrideRepository(this.db).inForce(now),
    ]);
    return {
      now,
      overrides,
      catalogue: {
        playlists: new Map(
          playlists.map((row) => [row.id, { name: row.name, items: fromJson<PlaylistItem[]>(row.items) }]),
        ),
        boardNames: new Map(boards.map((row) => [row.id, row.name])),
      },
    };
  }

  /**
   * What each screen of `screens` should show and whether it does, by tag, one for each: three
   * statements (their settings, their wake commands, and since when those that disagree show
   * what they show, unless `since` is false), however many screens.
   */
  async of(
    screens: readonly ScreenSeen[],
    { now, overrides, catalogue }: Prepared,
    { since: withSince = true } = {},
  ): Promise<Map<string, Playing>> {
    const tags = screens.map((screen) => screen.tag);
    const [settings, woken] = await Promise.all([
      new ScreenSettingsRepository(this.db).ofDevices(tags),
      this.lastWakes(screens.map((screen) => screen.id)),
    ]);
    const result = new Map<string, Playing>();
    const disagreeing: ScreenSeen[] = [];
    for (const screen of screens) {
      const facts: ScreenFacts = {
        ...(settings.get(screen.tag) ?? UNSET),
        override: overrideOn(overrides, screen),
        wokenAt: woken.get(screen.id) ?? null,
        online: screen.online,
        report:
          screen.showing === null || screen.last_seen_date === null
            ? null
            : { showing: screen.showing, at: screen.last_seen_date, since: null },
      };
      const playing = playingOf(facts, catalogue, now.getTime());
      result.set(screen.tag, playing);
      if (playing.agrees === false) disagreeing.push(screen);
    }
    // Since when is read for the screens that disagree only, few, and only where it is shown.
    if (!withSince) return result;
    const since = await this.showingSince(disagreeing.map((screen) => screen.id));
    for (const screen of disagreeing) {
      const playing = result.get(screen.tag);
      if (playing?.reported) playing.reported.since = since.get(screen.id) ?? null;
    }
    return result;
  }

  /** The time each screen's newest `wake` command was carried out, by device id. */
  private async lastWakes(ids: readonly string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.kysely
      .selectFrom('commands')
      .select(['device_id', (eb) => eb.fn.max('updated_at').as('at')])
      .where('device_id', 'in', ids)
      .where('type', '=', 'wake')
      .where('status', '=', 'done')
      .groupBy('device_id')
      .execute();
    return new Map(rows.map((row) => [row.device_id, Date.parse(iso(row.at) ?? '')]));
  }

  /** When each screen's status history last recorded a change of what it shows, by device id. */
  private async showingSince(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.kysely
      .selectFrom('device_history')
      .select(['device_id', (eb) => eb.fn.max('at').as('at')])
      .where('device_id', 'in', ids)
      .where('kind', '=', 'showing')
      .groupBy('device_id')
      .execute();
    return new Map(rows.flatMap((row) => (row.at === null ? [] : [[row.device_id, iso(row.at) ?? '']])));
  }
}
