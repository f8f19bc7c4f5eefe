import type { ScreenshotInfo } from '../../src/shared/command';
import type { Queryable } from '../db/database';
import { isoRequired } from './rows';

/** A device's newest screenshot: its PNG and what is known of it. */
export interface Screenshot {
  info: ScreenshotInfo;
  png: Uint8Array;
}

/** The newest screenshot of each device; a new one replaces it. */
export class ScreenshotRepository {
  constructor(private readonly db: Queryable) {}

  async put(
    device: { id: string; tag: string },
    png: Uint8Array,
    size: { width: number; height: number },
    at: Date,
  ): Promise<ScreenshotInfo> {
    const row = { png, width: size.width, height: size.height, taken_at: at.toISOString() };
    await this.db.kysely
      .insertInto('screenshots')
      .values({ device_id: device.id, ...row })
      .onConflict((conflict) => conflict.column('device_id').doUpdateSet(row))
      .execute();
    return { device_tag: device.tag, taken_at: row.taken_at, ...size, bytes: png.byteLength };
  }

  async newest(tag: string): Promise<Screenshot | null> {
    const row = await this.db.kysely
      .selectFrom('screenshots as s')
      .innerJoin('devices as d', 'd.id', 's.device_id')
      .select(['d.tag', 's.png', 's.width', 's.height', 's.taken_at'])
      .where('d.tag', '=', tag)
      .executeTakeFirst();
    if (!row) return null;
    return {
      png: row.png,
      info: {
        device_tag: row.tag,
        taken_at: isoRequired(row.taken_at),
        width: row.width,
        height: row.height,
        bytes: row.png.byteLength,
      },
    };
  }
}
