// A fleet of thousands of screens written straight into a store, for the tests and the bench of the
// lists that grow with it (bench/overview.ts): going through the API would take minutes.
import { randomUUID } from 'node:crypto';
import { heartbeatSchema } from '../../src/shared/device';
import { sampleHeartbeat } from '../../src/shared/testing/device-fixtures';
import type { Database } from '../db/database';
import { toJson } from '../db/dialect';
import { PlayRepository } from '../repositories/plays';
import { solidPng } from './png';

/** Rows per insert: far under both stores' limits on bound parameters. */
const BATCH = 200;

/** The instant every seeded heartbeat and screenshot is from. */
export const SEEDED_AT = Date.parse('2026-11-21T09:00:00.000Z');

/**
 * `count` screens fleet-00001 … (ids dev_fleet_00001 …), each having sent a heartbeat with one
 * failure, half of them online and half with a screenshot, all playing `playlistId`.
 */
export async function seedFleet(db: Database, count: number, playlistId: string | null): Promise<void> {
  const diagnostics = toJson({
    ...heartbeatSchema.parse(sampleHeartbeat('board:b1')),
    failures: [{ item: 'media:https://x.example/a.png', reason: '404', at: '2026-11-21T08:00:00.000Z' }],
    received_at: new Date(SEEDED_AT - 60_000).toISOString(),
  });
  const png = solidPng(4, 3);
  for (let start = 0; start < count; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, count - start) }, (_, i) => {
      const n = String(start + i + 1).padStart(5, '0');
      return {
        id: `dev_fleet_${n}`,
        tag: `fleet-${n}`,
        name: `Screen ${n}`,
        playlist_id: playlistId,
        online: (start + i) % 2 === 0,
        last_seen_date: new Date(SEEDED_AT - 60_000).toISOString(),
        last_seen_ip: '10.0.0.1',
        diagnostics,
      };
    });
    await db.kysely.insertInto('devices').values(rows).execute();
    const shots = rows.filter((_, i) => i % 2 === 0);
    await db.kysely
      .insertInto('screenshots')
      .values(
        shots.map((row) => ({ device_id: row.id, png, width: 4, height: 3, taken_at: row.last_seen_date })),
      )
      .execute();
  }
}

/**
 * `count` plays of a board by the device `deviceId`, one a minute ending at SEEDED_AT: a day of
 * ten-second turns on a busy screen is 8,640.
 */
export async function seedPlays(
  db: Database,
  deviceId: string,
  count: number,
  boardId: string,
): Promise<void> {
  const plays = Array.from({ length: count }, (_, i) => {
    const started = SEEDED_AT - (count - i) * 60_000;
    return {
      id: randomUUID(),
      type: 'board' as const,
      board_id: boardId,
      url: null,
      channel_id: null,
      started_at: new Date(started).toISOString(),
      ended_at: new Date(started + 10_000).toISOString(),
    };
  });
  await new PlayRepository(db).add(deviceId, plays);
}
