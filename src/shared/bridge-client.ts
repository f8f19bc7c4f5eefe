import type { z } from 'zod';
import {
  bridgeContract,
  bridgeMessageSchema,
  bridgeMethods,
  isAskMethod,
  playerStateSchema,
  rendererLogSchema,
  type AskMethod,
  type BridgeMessage,
  type MessageKind,
  type TellMethod,
  type Unsubscribe,
  type WallboardBridge,
} from './bridge';
import { dropBadItems, isRecord } from './bridge-salvage';
import { describeIssues } from './issues';

/**
 * How the renderer reaches the agent: Electron's IPC from the preload, or the web player's
 * socket. It carries values as they are; the client checks them.
 */
export interface BridgeTransport {
  ask(method: AskMethod, args: unknown[]): Promise<unknown>;
  tell(method: TellMethod, args: unknown[]): void;
  /** Every message the agent pushes, unchecked. */
  subscribe(listener: (message: unknown) => void): Unsubscribe;
}

const MAX_LOG_MESSAGE = rendererLogSchema.shape.message.maxLength ?? Infinity;

/**
 * The renderer's side of the contract over a transport: exactly the contract's methods and
 * messages, each answer and message checked with its schema where it enters the renderer's
 * process. A player state loses its bad playlist items, each logged, rather than being refused
 * whole; anything else that does not fit is dropped and logged to the agent.
 */
export function bridgeClient(transport: BridgeTransport): WallboardBridge {
  const listeners = new Set<(message: BridgeMessage) => void>();
  let unsubscribe: Unsubscribe | null = null;

  // The agent refuses a longer entry whole; a cut one still says what went wrong.
  const warn = (message: string): void =>
    transport.tell('log', [{ level: 'warn', message: message.slice(0, MAX_LOG_MESSAGE) }]);

  const salvaged = (schema: unknown, value: unknown): unknown =>
    schema === playerStateSchema ? dropBadItems(value, warn) : value;

  const check = <T>(schema: z.ZodType<T>, value: unknown, what: string): T | null => {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    warn(`ignored an invalid bridge frame from the agent (${what}): ${describeIssues(parsed.error)}`);
    return null;
  };

  /** A message with the player states among its fields salvaged, found by its kind's schemas. */
  const salvagedMessage = (raw: unknown): unknown => {
    if (!isRecord(raw) || typeof raw.kind !== 'string' || !Object.hasOwn(bridgeContract.messages, raw.kind)) {
      return raw;
    }
    const shape: Record<string, unknown> = bridgeContract.messages[raw.kind as MessageKind];
    return Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, salvaged(shape[key], value)]));
  };

  const receive = (raw: unknown): void => {
    const kind = isRecord(raw) && typeof raw.kind === 'string' ? raw.kind.slice(0, 40) : null;
    const message = check(
      bridgeMessageSchema,
      salvagedMessage(raw),
      kind ? `the ${kind} message` : 'a message',
    );
    if (!message) return;
    for (const listener of [...listeners]) {
      try {
        listener(message);
      } catch (error) {
        warn(`a bridge listener failed on a ${message.kind} message: ${String(error)}`);
      }
    }
  };

  const ask = async (method: AskMethod, args: unknown[]): Promise<unknown> => {
    const schema: z.ZodType = bridgeContract.methods[method].response;
    const answer = check(
      schema,
      salvaged(schema, await transport.ask(method, args)),
      `the answer to ${method}`,
    );
    if (answer === null) throw new Error(`the device agent's answer to ${method} does not fit the contract`);
    return answer;
  };

  const methods = Object.fromEntries(
    bridgeMethods.map((method) => [
      method,
      isAskMethod(method)
        ? (...args: unknown[]) => ask(method, args)
        : (...args: unknown[]) => transport.tell(method, args),
    ]),
  );

  return {
    ...(methods as Omit<WallboardBridge, 'onMessage'>),
    onMessage(listener) {
      listeners.add(listener);
      unsubscribe ??= transport.subscribe(receive);
      return () => {
        listeners.delete(listener);
        if (listeners.size > 0 || !unsubscribe) return;
        unsubscribe();
        unsubscribe = null;
      };
    },
  };
}
