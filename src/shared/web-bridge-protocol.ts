import { z } from 'zod';
import {
  bridgeContract,
  bridgeMethods,
  isAskMethod,
  type AskMethod,
  type BridgeAnswer,
  type BridgeArgs,
  type BridgeMessage,
  type BridgeMethod,
} from './bridge';

/**
 * The bridge contract as WebSocket frames, for the web player, each frame one JSON text message,
 * derived from the contract's table. A method that waits for an answer carries a request id,
 * because answers and pushed messages share the socket.
 */

const requestIdSchema = z.number().int().min(0);

/** Renderer to agent: a call of one method, `{method, request_id?, request?}`. */
export type CallFrame = {
  [M in BridgeMethod]: { method: M } & (M extends AskMethod ? { request_id: number } : unknown) &
    (BridgeArgs<M> extends [] ? { request?: undefined } : { request: BridgeArgs<M>[0] });
}[BridgeMethod];

function callFrameSchemas(): [z.ZodObject, ...z.ZodObject[]] {
  const [first, ...rest] = bridgeMethods.map((method) => {
    const { request } = bridgeContract.methods[method];
    return z.strictObject({
      method: z.literal(method),
      ...(isAskMethod(method) ? { request_id: requestIdSchema } : {}),
      ...(request === null ? {} : { request }),
    });
  });
  if (!first) throw new Error('the bridge contract has no methods');
  return [first, ...rest];
}

/**
 * Checks a call frame with the schemas of its method. Strict: the agent treats whatever a page
 * sends as untrusted.
 */
// zod cannot infer a union built from the table's entries; CallFrame is that union's type.
export const callFrameSchema = z.discriminatedUnion('method', callFrameSchemas()) as unknown as z.ZodType<
  CallFrame,
  unknown
>;

/**
 * Agent to renderer: the answer to a call, or a pushed message. What they carry is checked by the
 * page's bridge client with the contract's schemas (once, where it enters the page), so these
 * check the envelope only.
 */
export const agentFrameSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('answer'), request_id: requestIdSchema, answer: z.unknown() }),
  z.object({ kind: z.literal('message'), message: z.unknown() }),
]);

/** An agent frame as the agent sends it. */
export type AgentFrame =
  | { kind: 'answer'; request_id: number; answer: BridgeAnswer<AskMethod> }
  | { kind: 'message'; message: BridgeMessage };

/** Where the web player's server accepts the bridge socket. */
export const WEB_BRIDGE_PATH = '/bridge';

/**
 * A page that takes `metricsBatch` says so in the bridge socket's query (`?metrics=batch`): a
 * version of the renderer from before it (the web player may serve an older release) is sent each
 * flow as a `metrics` message of its own.
 */
export const METRICS_QUERY = { name: 'metrics', batch: 'batch' } as const;

/**
 * The web player's versions of the renderer (docs/updates.md, "The web player"): each served
 * under `/v/<label>/`, the page at the top following this event stream to swap to a new one
 * without a reload. Each event is the whole state: the version on screen, and the one on trial.
 */
export const WEB_VERSIONS_EVENTS_PATH = '/versions/events';

const webVersionEntrySchema = z.object({
  /** `built-in` (the bundle the build made) or the release's version. */
  label: z.string().min(1).max(80),
  version: z.string().max(80),
  /** Where its page is: `/v/<label>/`. */
  url: z.string().max(200),
});
export type WebVersionEntry = z.infer<typeof webVersionEntrySchema>;

export const webVersionsStateSchema = z.object({
  live: webVersionEntrySchema,
  trial: webVersionEntrySchema.nullable(),
});
export type WebVersionsState = z.infer<typeof webVersionsStateSchema>;
