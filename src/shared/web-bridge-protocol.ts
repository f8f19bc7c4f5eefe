import { z } from 'zod';
import { bridgeMessageSchema, playerStateSchema, rendererLogSchema, showingReportSchema } from './bridge';

/**
 * The bridge contract as WebSocket frames, for the web player: each frame is one JSON text
 * message. get-state carries a request id because answers and pushed messages share the socket.
 */

const requestIdSchema = z.number().int().min(0);

/** Renderer to agent. Strict: the agent treats whatever a page sends as untrusted. */
export const rendererFrameSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('get-state'), request_id: requestIdSchema }),
  z.strictObject({ kind: z.literal('report-showing'), report: showingReportSchema }),
  z.strictObject({ kind: z.literal('log'), entry: rendererLogSchema }),
]);
export type RendererFrame = z.infer<typeof rendererFrameSchema>;

/** Agent to renderer. */
export const agentFrameSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('state-response'), request_id: requestIdSchema, state: playerStateSchema }),
  z.object({ kind: z.literal('message'), message: bridgeMessageSchema }),
]);
export type AgentFrame = z.infer<typeof agentFrameSchema>;

/** Where the web player's server accepts the bridge socket. */
export const WEB_BRIDGE_PATH = '/bridge';
