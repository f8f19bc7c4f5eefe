import { z } from 'zod';
import { realtimeEventSchema } from '../../src/shared/events';
import { idSchema } from '../../src/shared/common';
import { operatorNoticeSchema } from '../../src/shared/notices';

/**
 * Every message the service's nodes say to each other over the bus (node-state.ts), by topic: one
 * table, as the bridge's (src/shared/bridge.ts), from which publishing and subscribing are typed
 * and by which a message from another node is parsed where it enters this process
 * (`LocalBus.heard`). A topic not in the table, or a payload that does not fit, is refused.
 */
export const BUS_MESSAGES = {
  /** A token was deleted: every node forgets it (http/auth.ts). */
  'tokens.revoked': idSchema,
  /** A script changed on the node `from`; the others' schedulers follow (jobs/scripts.ts). */
  'scripts.changed': z.object({ id: idSchema, from: z.string().min(1) }),
  /** A console session, or every session of a user, ended (realtime/session-ends.ts). */
  'sessions.ended': z.union([z.object({ sessionId: z.string().min(1) }), z.object({ userId: idSchema })]),
  /** An event committed on some node, for this node's sockets in those rooms (realtime/hub.ts). */
  'realtime.event': z.object({ event: realtimeEventSchema, rooms: z.array(z.string()) }),
  /**
   * A change committed on some node, for this node's watching consoles of `account` (null: the
   * service's own upkeep, told to every console without an id) (realtime/operators.ts).
   */
  'operators.notice': z.object({ notice: operatorNoticeSchema, account: z.string().min(1).nullable() }),
} as const;

export type BusTopic = keyof typeof BUS_MESSAGES;
export type BusMessage<T extends BusTopic> = z.infer<(typeof BUS_MESSAGES)[T]>;

export const isBusTopic = (topic: string): topic is BusTopic => Object.hasOwn(BUS_MESSAGES, topic);
