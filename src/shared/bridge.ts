import { z } from 'zod';
import { tagSchema, timestampSchema } from './common';
import { boardExportSchema } from './board-export';
import { metricsDataSchema } from './metrics';
import { notificationSchema } from './notification';
import { playlistSchema } from './playlist';

/**
 * The one contract between the device agent and the renderer. Inside Electron it is carried by
 * IPC (the preload exposes exactly these methods); in the web player by a WebSocket. The token
 * and anything else secret never cross it.
 */
export const playerStateSchema = z.object({
  device: z.object({ tag: tagSchema, name: z.string() }),
  /** Connected to the service now. */
  online: z.boolean(),
  /** True while what is shown comes from the cache and may be out of date. */
  stale: z.boolean(),
  last_sync: timestampSchema.nullable(),
  playlist: playlistSchema.nullable(),
  /** Boards of the playlist, by board id. */
  boards: z.record(z.string(), boardExportSchema),
  /** Remote media URL to the URL the renderer loads it from (the local cache). */
  media: z.record(z.string(), z.string()),
});
export type PlayerState = z.infer<typeof playerStateSchema>;

/** Pushed from the agent to the renderer. */
export const bridgeMessageSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('state'), state: playerStateSchema }),
  z.object({ kind: z.literal('metrics'), flow_tag: tagSchema, data: metricsDataSchema }),
  z.object({ kind: z.literal('notification'), notification: notificationSchema }),
]);
export type BridgeMessage = z.infer<typeof bridgeMessageSchema>;

/** Reported by the renderer: what is on screen now, for heartbeats. */
export const showingReportSchema = z.strictObject({ showing: z.string().max(2048) });
export type ShowingReport = z.infer<typeof showingReportSchema>;

export const rendererLogSchema = z.strictObject({
  level: z.enum(['info', 'warn', 'error']),
  message: z.string().max(4096),
});
export type RendererLog = z.infer<typeof rendererLogSchema>;

/** IPC channel names, one per bridge method; main validates each payload with its schema. */
export const BRIDGE_CHANNELS = {
  getState: 'wallboard:get-state',
  message: 'wallboard:message',
  reportShowing: 'wallboard:report-showing',
  log: 'wallboard:log',
} as const;

export type Unsubscribe = () => void;

/** What the renderer sees as `window.wallboard`. */
export interface WallboardBridge {
  getState(): Promise<PlayerState>;
  onMessage(listener: (message: BridgeMessage) => void): Unsubscribe;
  reportShowing(report: ShowingReport): void;
  log(entry: RendererLog): void;
}
