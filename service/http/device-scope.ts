import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database';
import { notFound, type DomainError } from '../domain/errors';
import { roomsOfDevice } from '../realtime/subscriptions';
import type { DeviceView } from '../visibility/scope';
import { HttpError } from './errors';

/**
 * What the device `tag` plays now, exactly the rooms its socket joins (realtime/subscriptions.ts):
 * the playlist, the boards of its board items, the flows of their widgets, and their channels; and
 * its group. A request of a token bound to it sees these only (visibility/scope.ts).
 */
export async function deviceView(db: Queryable, tag: string): Promise<DeviceView> {
  // Rooms are `<kind>:<id>` (realtime/rooms.ts); ids and tags hold no colon.
  const byKind = new Map<string, string[]>();
  for (const room of await roomsOfDevice(db, tag)) {
    const colon = room.indexOf(':');
    const kind = room.slice(0, colon);
    byKind.set(kind, [...(byKind.get(kind) ?? []), room.slice(colon + 1)]);
  }
  const flowIds = byKind.get('flow') ?? [];
  const channelIds = byKind.get('channel') ?? [];
  const flows = flowIds.length
    ? await db.kysely.selectFrom('flows').select(['id', 'tag']).where('id', 'in', flowIds).execute()
    : [];
  const channels = channelIds.length
    ? await db.kysely.selectFrom('channels').select(['id', 'tag']).where('id', 'in', channelIds).execute()
    : [];
  const device = await db.kysely
    .selectFrom('devices')
    .select('group_id')
    .where('tag', '=', tag)
    .executeTakeFirst();
  return {
    tag,
    group: device?.group_id ?? null,
    playlists: new Set(byKind.get('playlist')),
    boards: new Set(byKind.get('board')),
    flows: new Map(flows.map((flow) => [flow.id, flow.tag])),
    channels: new Map(channels.map((channel) => [channel.id, channel.tag])),
  };
}

/** Refuses what no device-bound token may do at all (creating devices): 403 with the usual body. */
export function refuseDeviceBound(request: FastifyRequest, doing: string): void {
  const tag = request.token?.device_tag;
  if (tag) {
    throw new HttpError(403, 'forbidden', `a token bound to device ${tag} may not ${doing}`);
  }
}

/**
 * A device other than the one the request's token is bound to does not exist for it: the 404 of an
 * unknown tag, for every route under `/devices/:tag`, reads and writes alike (the auth hook asks).
 */
export function otherDevice(request: FastifyRequest): DomainError | null {
  const bound = request.token?.device_tag;
  if (!bound || !request.routeOptions.url?.startsWith('/devices/:tag')) return null;
  const { tag } = request.params as { tag: string };
  return tag === bound ? null : notFound(`device ${tag}`);
}
