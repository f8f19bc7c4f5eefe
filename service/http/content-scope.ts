import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database';
import type { ContentKind as Kind, Foreign } from '../visibility/foreign-content';
import { currentGroups, foreignToCaller } from '../visibility/groups';
import { HttpError } from './errors';

/** What a write changes: content by id, a flow by tag, or a kind of write no scoped person may make. */
type Target = { kind: Kind; id: string } | { kind: 'flow-tag'; tag: string } | { refused: string };

type Params = Record<string, string>;
type Body = Record<string, unknown> | undefined;
type Resolve = (params: Params, body: Body, db: Queryable) => Promise<Target[]>;

const one = (kind: Kind, id: string | null | undefined): Target[] => (id ? [{ kind, id }] : []);
const flowTag = (tag: string | undefined): Target[] => (tag ? [{ kind: 'flow-tag', tag }] : []);
const stringOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

async function boardOfWidget(db: Queryable, id: string): Promise<Target[]> {
  const row = await db.kysely
    .selectFrom('widgets')
    .select('board_id')
    .where('id', '=', id)
    .executeTakeFirst();
  return one('board', row?.board_id);
}

async function flowOfScript(db: Queryable, id: string): Promise<Target[]> {
  const row = await db.kysely.selectFrom('scripts').select('flow_id').where('id', '=', id).executeTakeFirst();
  return one('flow', row?.flow_id);
}

async function flowsOfSource(db: Queryable, sourceId: string): Promise<Target[]> {
  const rows = await db.kysely
    .selectFrom('data_bindings')
    .select('flow_id')
    .where('source_id', '=', sourceId)
    .execute();
  return rows.flatMap((row) => one('flow', row.flow_id));
}

async function flowOfBinding(db: Queryable, id: string): Promise<Target[]> {
  const row = await db.kysely
    .selectFrom('data_bindings')
    .select('flow_id')
    .where('id', '=', id)
    .executeTakeFirst();
  return one('flow', row?.flow_id);
}

/** What a notification was sent to: a channel's content, or screens to be seen. */
async function notificationTargets(db: Queryable, id: string): Promise<Target[]> {
  const row = await db.kysely
    .selectFrom('notifications')
    .select(['channel_id', 'target_group_id', 'target_device_tag'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return [];
  const { channel_id: channel, target_group_id: group, target_device_tag: tag } = row;
  // Screens are looked up as the caller sees them: another group's are not found.
  const seen =
    (group === null ||
      (await db.kysely.selectFrom('groups').select('id').where('id', '=', group).executeTakeFirst())) &&
    (tag === null ||
      (await db.kysely.selectFrom('devices').select('id').where('tag', '=', tag).executeTakeFirst()));
  if (!seen || (channel === null && group === null && tag === null)) {
    return [{ refused: 'delete a notification sent to screens outside your groups' }];
  }
  return one('channel', channel);
}

/** A notification's or override's target as a body names it: every screen is beyond any group. */
function targetOf(body: Body): Target[] {
  const target = body?.target as Record<string, unknown> | undefined;
  if (target?.all === true) return [{ refused: 'reach every screen of the account' }];
  return one('channel', stringOf(target?.channel_id));
}

const BATCH: Resolve = async () => [{ refused: 'write several flows at once; write each flow by its tag' }];

/**
 * How each write route names the content it changes, by Fastify's method and URL. Routes that
 * name a screen or a group need nothing here: another group's is not found at all
 * (visibility/group-plugin.ts). Creations name nothing yet, and are the caller's to change.
 */
const RESOLVERS: Readonly<Record<string, Resolve>> = {
  'PATCH /boards/:id': async (p) => one('board', p.id),
  'DELETE /boards/:id': async (p) => one('board', p.id),
  'PUT /boards/:id/content': async (p) => one('board', p.id),
  'POST /boards/:id/widgets': async (p) => one('board', p.id),
  'PATCH /boards/:id/widgets/:widget_id': async (p) => one('board', p.id),
  'DELETE /boards/:id/widgets/:widget_id': async (p) => one('board', p.id),
  'POST /widgets': async (_p, body) => one('board', stringOf(body?.board_id)),
  'PATCH /widgets/:id': async (p, _b, db) => boardOfWidget(db, p.id as string),
  'DELETE /widgets/:id': async (p, _b, db) => boardOfWidget(db, p.id as string),
  'PATCH /flows/:id': async (p) => [...one('flow', p.id), ...flowTag(p.id)],
  'DELETE /flows/:id': async (p) => [...one('flow', p.id), ...flowTag(p.id)],
  'PUT /flows/:tag/metrics': async (p) => flowTag(p.tag),
  'PATCH /flows/:tag/metrics': async (p) => flowTag(p.tag),
  'DELETE /flows/:tag/metrics': async (p) => flowTag(p.tag),
  'PUT /flows/:tag/data': async (p) => flowTag(p.tag),
  'PATCH /flows/:tag/data': async (p) => flowTag(p.tag),
  'DELETE /flows/:tag/data': async (p) => flowTag(p.tag),
  'POST /flows/:tag/error': async (p) => flowTag(p.tag),
  'POST /flows/:tag/notifications': async (p) => flowTag(p.tag),
  'PATCH /channels/:id': async (p) => one('channel', p.id),
  'DELETE /channels/:id': async (p) => one('channel', p.id),
  'POST /channels/:channel_id/notifications': async (p) => one('channel', p.channel_id),
  'POST /channels/:channel_id/metrics': async (p) => one('channel', p.channel_id),
  'PATCH /channels/:channel_id/metrics': async (p) => one('channel', p.channel_id),
  'POST /channels/:channel_id/data': async (p) => one('channel', p.channel_id),
  'POST /channels/:channel_id/flows/:flow_tag/data': async (p) => flowTag(p.flow_tag),
  'POST /metrics': BATCH,
  'PATCH /metrics': BATCH,
  'POST /data': BATCH,
  'PATCH /data': BATCH,
  'POST /v1/data': BATCH,
  'PATCH /v1/data': BATCH,
  'POST /notifications': async (_p, body) => targetOf(body),
  'DELETE /notifications/:id': async (p, _b, db) => notificationTargets(db, p.id as string),
  'POST /overrides': async (_p, body) => targetOf(body),
  'PATCH /playlists/:id': async (p) => one('playlist', p.id),
  'DELETE /playlists/:id': async (p) => one('playlist', p.id),
  'PATCH /media/:id': async (p) => one('media', p.id),
  'DELETE /media/:id': async (p) => one('media', p.id),
  'PUT /media/:id/content': async (p) => one('media', p.id),
  'PATCH /scripts/:id': async (p, _b, db) => flowOfScript(db, p.id as string),
  'DELETE /scripts/:id': async (p, _b, db) => flowOfScript(db, p.id as string),
  'POST /scripts/:id/run': async (p, _b, db) => flowOfScript(db, p.id as string),
  'PUT /scripts/:id/secrets/:name': async (p, _b, db) => flowOfScript(db, p.id as string),
  'DELETE /scripts/:id/secrets/:name': async (p, _b, db) => flowOfScript(db, p.id as string),
  'POST /data-bindings': async (_p, body) => flowTag(stringOf(body?.flow)),
  'PATCH /data-bindings/:id': async (p, _b, db) => flowOfBinding(db, p.id as string),
  'DELETE /data-bindings/:id': async (p, _b, db) => flowOfBinding(db, p.id as string),
  'PATCH /data-sources/:id': async (p, _b, db) => flowsOfSource(db, p.id as string),
  'DELETE /data-sources/:id': async (p, _b, db) => flowsOfSource(db, p.id as string),
};

async function flowIdOf(db: Queryable, tag: string): Promise<string | undefined> {
  const row = await db.kysely.selectFrom('flows').select('id').where('tag', '=', tag).executeTakeFirst();
  return row?.id;
}

const NOUNS: Record<Kind, string> = {
  board: 'board',
  playlist: 'playlist',
  flow: 'flow',
  channel: 'channel',
  media: 'medium',
};

/**
 * Refuses (403) a write of a person kept to some screen groups that would change what a screen
 * outside them plays: content any screen of another group (or of none) plays is theirs to read,
 * not to change (docs/api/users.md). Content no such screen plays, their own screens' included,
 * is theirs to change. Runs after the auth hook, inside the caller's account and groups.
 */
export async function checkContentScope(request: FastifyRequest, db: Queryable): Promise<void> {
  const resolve = RESOLVERS[`${request.method} ${request.routeOptions.url ?? ''}`];
  if (!resolve || !currentGroups()?.length) return;
  const targets = await resolve(request.params as Params, request.body as Body, db);
  const refused = targets.find((target) => 'refused' in target);
  if (refused && 'refused' in refused) {
    throw new HttpError(403, 'forbidden', `a person kept to some screen groups may not ${refused.refused}`);
  }
  if (targets.length === 0) return;
  const foreign = await (foreignToCaller(db) as Promise<Foreign>);
  for (const target of targets) {
    if ('refused' in target) continue;
    const [kind, id] =
      target.kind === 'flow-tag'
        ? (['flow', await flowIdOf(db, target.tag)] as const)
        : [target.kind, target.id];
    if (id !== undefined && foreign[kind].has(id)) {
      throw new HttpError(
        403,
        'forbidden',
        `${NOUNS[kind]} ${'tag' in target ? target.tag : id} plays on screens outside your groups: you may read it, not change it`,
      );
    }
  }
}
