import type { Selectable } from 'kysely';
import type { Release, ReleaseChannel, ReleaseFile, ReleaseKind } from '../../src/shared/release';
import type { Queryable } from '../db/database';
import { flag } from '../db/dialect';
import type { ReleasesTable } from '../db/schema';
import { conflict } from '../domain/errors';
import { isoRequired } from './rows';
import { refusing } from './refusals';

/** A release file as kept: its bytes are the media storage's content `sha256`. */
export interface StoredReleaseFile extends ReleaseFile {
  sha256: string;
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Player releases and their files (migration 27, docs/updates.md). */
export class ReleaseRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * The release's row, not ready: listed and offered only once every file is kept (`markReady`).
   * A version of the kind already there is a 409.
   */
  async insertPending(
    row: {
      id: string;
      kind: ReleaseKind;
      channel: ReleaseChannel;
      version: string;
      notes: string;
      bytes: number;
    },
    at: Date,
  ): Promise<void> {
    await refusing(
      this.db.kysely
        .insertInto('releases')
        .values({ ...row, ready: false, created_at: at.toISOString() })
        .execute(),
      {
        unique: () =>
          conflict(
            `a ${row.kind} release of version ${row.version} is there already (or is being uploaded): delete it first, or give a new version`,
            [{ path: 'version', message: 'is taken' }],
          ),
      },
    );
  }

  async addFile(releaseId: string, file: StoredReleaseFile): Promise<void> {
    await this.db.kysely
      .insertInto('release_files')
      .values({ release_id: releaseId, ...file })
      .execute();
  }

  /** Releases left not ready since before `before`: uploads cut off by a stop of the service. */
  async staleUploads(before: Date): Promise<string[]> {
    const rows = await this.db.kysely
      .selectFrom('releases')
      .select('id')
      .where('ready', '=', false)
      .where('created_at', '<', before.toISOString())
      .execute();
    return rows.map((row) => row.id);
  }

  async markReady(id: string): Promise<void> {
    await this.db.kysely.updateTable('releases').set({ ready: true }).where('id', '=', id).execute();
  }

  /** Ready releases, newest first, each with its files. */
  async list(): Promise<Release[]> {
    const rows = await this.db.kysely
      .selectFrom('releases')
      .selectAll()
      .where('ready', '=', true)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return this.withFiles(rows);
  }

  /** A ready release; null when there is none (or it is still being uploaded). */
  async find(id: string): Promise<Release | null> {
    const rows = await this.db.kysely
      .selectFrom('releases')
      .selectAll()
      .where('id', '=', id)
      .where('ready', '=', true)
      .execute();
    return (await this.withFiles(rows))[0] ?? null;
  }

  /** Ready releases by id, as offers are made of them. */
  async findMany(ids: readonly string[]): Promise<Map<string, Release>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.kysely
      .selectFrom('releases')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .where('ready', '=', true)
      .execute();
    return new Map((await this.withFiles(rows)).map((release) => [release.id, release]));
  }

  /** One file of a release, ready or not; null when it has none of that name. */
  async file(releaseId: string, name: string): Promise<StoredReleaseFile | null> {
    const row = await this.db.kysely
      .selectFrom('release_files')
      .select(['name', 'size', 'sha512', 'sha256'])
      .where('release_id', '=', releaseId)
      .where('name', '=', name)
      .executeTakeFirst();
    return row ? { ...row, size: Number(row.size) } : null;
  }

  /** What uses a release: rollouts in force and pins (the screens' tags). */
  async usage(id: string): Promise<{ rollouts: string[]; pins: string[] }> {
    const rollouts = await this.db.kysely
      .selectFrom('rollouts')
      .select('id')
      .where('release_id', '=', id)
      .where('rolled_back_at', 'is', null)
      .execute();
    const pins = await this.db.kysely
      .selectFrom('release_pins')
      .select('device_tag')
      .where('release_id', '=', id)
      .execute();
    return { rollouts: rollouts.map((row) => row.id), pins: pins.map((row) => row.device_tag) };
  }

  /** Deletes a release, ready or not, with its files and past rollouts; the contents its files named. */
  async delete(id: string): Promise<string[] | null> {
    const files = await this.db.kysely
      .selectFrom('release_files')
      .select('sha256')
      .where('release_id', '=', id)
      .execute();
    await this.db.kysely.deleteFrom('release_files').where('release_id', '=', id).execute();
    await this.db.kysely.deleteFrom('rollouts').where('release_id', '=', id).execute();
    const deleted = await this.db.kysely.deleteFrom('releases').where('id', '=', id).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) return null;
    return files.map((file) => file.sha256);
  }

  private async withFiles(rows: Selectable<ReleasesTable>[]): Promise<Release[]> {
    if (rows.length === 0) return [];
    const files = await this.db.kysely
      .selectFrom('release_files')
      .select(['release_id', 'name', 'size', 'sha512'])
      .where(
        'release_id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    return rows
      .filter((row) => flag(row.ready))
      .map((row) => ({
        id: row.id,
        kind: row.kind,
        channel: row.channel,
        version: row.version,
        notes: row.notes,
        created_at: isoRequired(row.created_at),
        files: files
          .filter((file) => file.release_id === row.id)
          .map((file) => ({ name: file.name, size: Number(file.size), sha512: file.sha512 }))
          .sort(byName),
      }));
  }
}
