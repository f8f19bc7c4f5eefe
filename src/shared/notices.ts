import { z } from 'zod';

/**
 * What the service tells a watching console (socket.io, the `operators` room): which kind of
 * resource changed, and which one when it is one. A notice carries no data: the console refetches
 * what it shows of that resource (docs/api.md, Realtime for operators).
 */
export const OPERATOR_RESOURCES = [
  'devices',
  'playlists',
  'boards',
  'flows',
  'channels',
  'notifications',
  'commands',
  'screenshots',
  'plays',
  'media',
  'scripts',
  'tokens',
  'users',
  'pairings',
  'groups',
  'overrides',
  'alerts',
  /** Data sources and their bindings (docs/data-sources.md): one resource, as one page shows both. */
  'data-sources',
  /** Player releases, their rollouts and pins (docs/updates.md). */
  'releases',
] as const;
export const operatorResourceSchema = z.enum(OPERATOR_RESOURCES);
export type OperatorResource = z.infer<typeof operatorResourceSchema>;

export const operatorNoticeSchema = z.object({
  resource: operatorResourceSchema,
  /** The changed one (a device's tag, or the id of anything else); absent when many or unknown. */
  id: z.string().optional(),
});
export type OperatorNotice = z.infer<typeof operatorNoticeSchema>;

/** The answer to `watch`: the socket hears notices from now on, or why not. */
export const watchAckSchema = z.union([
  z.object({ ok: z.literal(true) }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type WatchAck = z.infer<typeof watchAckSchema>;
