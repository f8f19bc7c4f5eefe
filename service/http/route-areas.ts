import type { UserRole } from '../../src/shared/user';
import type { Permission } from './auth';

/**
 * The part of the API each route that changes something belongs to, by Fastify's method and URL
 * (`PATCH /boards/:id`): editors write `content`, publishers `publishing`, admins (and full
 * tokens) everything (docs/api/users.md). A route missing here is an admin's alone; the
 * permissions matrix (service/permissions.test.ts) fails until every route of the API is listed
 * or is a read.
 */
export type Area =
  /** Boards, widgets, flows and their data, media, channels, scripts, data sources. */
  | 'content'
  /** What plays: playlists, schedules, screens' playlists, notifications, overrides. */
  | 'publishing'
  /** Users, tokens, groups, pairing, commanding and removing screens, alerts, feeds, the account. */
  | 'admin';

/** The permissions that change something: a route needing one is a write, and has an area. */
export const WRITES: ReadonlySet<Permission | 'public'> = new Set<Permission>([
  'write',
  'delete',
  'tokens:write',
  'devices:write',
  'notifications:write',
  'metrics:write',
  'users',
]);

export const ROLE_AREAS: Readonly<Record<UserRole, readonly Area[]>> = {
  admin: ['content', 'publishing', 'admin'],
  editor: ['content'],
  publisher: ['publishing'],
  viewer: [],
};

/** Whose the area is, as a refusal says it. */
export const AREA_WORDS: Readonly<Record<Area, string>> = {
  content: 'content is changed by editors and admins',
  publishing: 'what plays is decided by publishers and admins',
  admin: 'only an admin may',
};

const each = (area: Area, routes: readonly string[]): [string, Area][] =>
  routes.map((route) => [route, area]);

export const ROUTE_AREAS: Readonly<Record<string, Area>> = Object.fromEntries([
  ...each('content', [
    'POST /flows',
    'PATCH /flows/:id',
    'DELETE /flows/:id',
    'POST /channels',
    'PATCH /channels/:id',
    'DELETE /channels/:id',
    'PUT /flows/:tag/metrics',
    'PATCH /flows/:tag/metrics',
    'DELETE /flows/:tag/metrics',
    'PUT /flows/:tag/data',
    'PATCH /flows/:tag/data',
    'DELETE /flows/:tag/data',
    'POST /metrics',
    'PATCH /metrics',
    'POST /data',
    'PATCH /data',
    'POST /v1/data',
    'PATCH /v1/data',
    'POST /flows/:tag/error',
    'POST /channels/:channel_id/metrics',
    'PATCH /channels/:channel_id/metrics',
    'POST /channels/:channel_id/data',
    'POST /channels/:channel_id/flows/:flow_tag/data',
    'POST /boards',
    'PATCH /boards/:id',
    'DELETE /boards/:id',
    'POST /boards/import',
    'POST /boards/from-template/:template',
    'PUT /boards/:id/content',
    'POST /boards/:id/duplicate',
    'POST /boards/:id/widgets',
    'PATCH /boards/:id/widgets/:widget_id',
    'DELETE /boards/:id/widgets/:widget_id',
    'POST /widgets',
    'PATCH /widgets/:id',
    'DELETE /widgets/:id',
    'POST /media',
    'PATCH /media/:id',
    'DELETE /media/:id',
    'PUT /media/:id/content',
    'POST /scripts',
    'PATCH /scripts/:id',
    'DELETE /scripts/:id',
    'POST /scripts/:id/run',
    'PUT /scripts/:id/secrets/:name',
    'DELETE /scripts/:id/secrets/:name',
    'POST /data-sources',
    'PATCH /data-sources/:id',
    'DELETE /data-sources/:id',
    'POST /data-sources/:id/test',
    'POST /data-bindings',
    'PATCH /data-bindings/:id',
    'DELETE /data-bindings/:id',
  ]),
  ...each('publishing', [
    'POST /notifications',
    'POST /channels/:channel_id/notifications',
    'POST /flows/:tag/notifications',
    'DELETE /notifications/:id',
    'PATCH /devices/:tag',
    'POST /playlists',
    'PATCH /playlists/:id',
    'DELETE /playlists/:id',
    'PATCH /groups/:id',
    'POST /overrides',
    'DELETE /overrides/:id',
    'POST /sync-groups',
    'PATCH /sync-groups/:id',
    'DELETE /sync-groups/:id',
    'PUT /sync-groups/:id/screens/:tag',
    'DELETE /sync-groups/:id/screens/:tag',
  ]),
  ...each('admin', [
    'POST /users',
    'PATCH /users/:id',
    'DELETE /users/:id',
    'POST /account/tokens',
    'DELETE /account/tokens/:id',
    'POST /devices',
    'DELETE /devices/:tag',
    'POST /devices/:tag/commands',
    'POST /devices/:tag/heartbeat',
    'POST /devices/:tag/offline',
    'POST /devices/:tag/commands/:id/result',
    'PUT /devices/:tag/screenshot',
    'POST /devices/:tag/plays',
    'POST /pairings/claim',
    'POST /groups',
    'DELETE /groups/:id',
    'POST /alert-destinations',
    'DELETE /alert-destinations/:id',
    'POST /alert-rules',
    'DELETE /alert-rules/:id',
    'POST /cap-feeds',
    'DELETE /cap-feeds/:id',
    'PUT /account/sso',
    'DELETE /account/sso',
    // Player releases (docs/updates.md): which software screens run is an admin's choice, and a
    // rollout reaches screens of any group; a screen reports its updates as it does heartbeats.
    'POST /releases',
    'DELETE /releases/:id',
    'POST /rollouts',
    'PATCH /rollouts/:id',
    'POST /rollouts/:id/rollback',
    'PUT /devices/:tag/release-pins/:kind',
    'DELETE /devices/:tag/release-pins/:kind',
    'POST /devices/:tag/update-reports',
  ]),
]);
