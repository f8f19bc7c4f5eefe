import { z } from 'zod';
import { commandSchema } from './command';
import { idSchema, tagSchema } from './common';
import { metricsDataSchema } from './metrics';
import { notificationSchema } from './notification';
import type { OperatorNotice, WatchAck } from './notices';
import type { ClockAnswer } from './sync';

/**
 * What the service pushes over socket.io. Every event carries a per-service increasing `id`, so
 * a device that reconnects asks for what came after the last id it saw.
 */
export const realtimeEventSchema = z.discriminatedUnion('type', [
  z.object({ id: z.int(), type: z.literal('device.changed'), device_tag: tagSchema }),
  z.object({ id: z.int(), type: z.literal('playlist.changed'), playlist_id: idSchema }),
  z.object({ id: z.int(), type: z.literal('board.changed'), board_id: idSchema }),
  z.object({ id: z.int(), type: z.literal('flow.changed'), flow_id: idSchema }),
  z.object({
    id: z.int(),
    type: z.literal('metrics.changed'),
    flow_id: idSchema,
    flow_tag: tagSchema,
    data: metricsDataSchema,
  }),
  z.object({ id: z.int(), type: z.literal('notification.created'), notification: notificationSchema }),
  z.object({ id: z.int(), type: z.literal('command.created'), command: commandSchema }),
]);
export type RealtimeEvent = z.infer<typeof realtimeEventSchema>;
export type RealtimeEventType = RealtimeEvent['type'];

/** Sent by a device right after it connects (and after every reconnection). */
export const helloSchema = z.strictObject({
  device_tag: tagSchema,
  /** The last event id it has seen, or null on a first start. */
  last_event_id: z.int().nullable(),
});
export type Hello = z.infer<typeof helloSchema>;

/**
 * The service's answer: the missed events, or `resync: true` when the device must fetch its whole
 * state again (first start, events no longer kept, or too many missed). `error` says why a hello
 * was refused (an invalid hello or a token that is no longer valid).
 */
export const helloAckSchema = z.object({
  resync: z.boolean(),
  events: z.array(realtimeEventSchema),
  last_event_id: z.int(),
  error: z.string().optional(),
});
export type HelloAck = z.infer<typeof helloAckSchema>;

export interface ServerToClientEvents {
  event: (event: RealtimeEvent) => void;
  /** To a console that said `watch` (src/shared/notices.ts); never to a device. */
  notice: (notice: OperatorNotice) => void;
}

export interface ClientToServerEvents {
  hello: (hello: Hello, ack: (answer: HelloAck) => void) => void;
  /** A console, instead of `hello`: hear a notice of every change (docs/api.md). */
  watch: (ack: (answer: WatchAck) => void) => void;
  /** A device reads the service's clock, to share a timeline with its sync group (docs/sync.md). */
  clock: (ack: (answer: ClockAnswer) => void) => void;
}
