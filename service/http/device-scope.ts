import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database';
import { notFound } from '../domain/errors';
import { roomsOfDevice } from '../realtime/subscriptions';
import { HttpError } from './errors';

/**
 * What a token bound to a device (`device_tag`, docs/api.md) may see: its device and what that
 * device plays, exactly the rooms its socket joins (realtime/subscriptions.ts): the playlist, the
 * boards of its board items, the flows of their widgets, and their channels. Anything else is
 * answered 404, as if it did not exist, so that one screen's token cannot probe for others.
 * Tokens bound to no device see everything their scope grants.
 */
export class Visibility {
  private constructor(
    private readonly view: {
      tag: string;
      playlists: ReadonlySet<string>;
      boards: ReadonlySet<string>;
      /** Flow id to tag, and channel id to tag: routes name flows by tag, channels by either. */
      flows: ReadonlyMap<string, string>;
      channels: ReadonlyMap<string, string>;
    } | null,
  ) {}

  static readonly everything = new Visibility(null);

  /** Reads what the device `tag` plays now: the store's state at the request, not a cached one. */
  static async ofDevice(db: Queryable, tag: string): Promise<Visibility> {
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
    return new Visibility({
      tag,
      playlists: new Set(byKind.get('playlist')),
      boards: new Set(byKind.get('board')),
      flows: new Map(flows.map((flow) => [flow.id, flow.tag])),
      channels: new Map(channels.map((channel) => [channel.id, channel.tag])),
    });
  }

  /** The device the token acts for alone, or null. */
  get boundTo(): string | null {
    return this.view?.tag ?? null;
  }

  device(tag: string): boolean {
    return !this.view || this.view.tag === tag;
  }

  playlist(id: string): boolean {
    return !this.view || this.view.playlists.has(id);
  }

  board(id: string): boolean {
    return !this.view || this.view.boards.has(id);
  }

  flow(id: string): boolean {
    return !this.view || this.view.flows.has(id);
  }

  flowTag(tag: string): boolean {
    return !this.view || [...this.view.flows.values()].includes(tag);
  }

  /** A channel named by id or by tag, as the notification routes accept it. */
  channel(idOrTag: string): boolean {
    if (!this.view) return true;
    return this.view.channels.has(idOrTag) || [...this.view.channels.values()].includes(idOrTag);
  }

  /** The channels it may read notifications of; undefined: every channel. */
  channelIds(): string[] | undefined {
    return this.view ? [...this.view.channels.keys()] : undefined;
  }
}

const computed = new WeakMap<FastifyRequest, Promise<Visibility>>();

/** What the request's token may see, computed once per request (the auth hook set the token). */
export function visibilityOf(db: Queryable, request: FastifyRequest): Promise<Visibility> {
  const tag = request.token?.device_tag;
  if (!tag) return Promise.resolve(Visibility.everything);
  let visibility = computed.get(request);
  if (!visibility) {
    visibility = Visibility.ofDevice(db, tag);
    computed.set(request, visibility);
  }
  return visibility;
}

/** Refuses what no device-bound token may do at all (creating devices): 403 with the usual body. */
export function refuseDeviceBound(request: FastifyRequest, doing: string): void {
  const tag = request.token?.device_tag;
  if (tag) {
    throw new HttpError(403, 'forbidden', `a token bound to device ${tag} may not ${doing}`);
  }
}

/**
 * A device other than the one the request's token is bound to does not exist for it: 404, the
 * same answer as for an unknown tag. Every route with a device's tag in its path calls this.
 */
export function checkDevice(request: FastifyRequest, tag: string): void {
  const bound = request.token?.device_tag;
  if (bound && bound !== tag) throw notFound(`device ${tag}`);
}
