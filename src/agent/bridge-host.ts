import type {
  AskMethod,
  BridgeAnswer,
  BridgeArgs,
  BridgeMessage,
  BridgeMethod,
  BridgeRequest,
  TellMethod,
  Unsubscribe,
} from '../shared/bridge';

/**
 * The agent's side of the bridge contract, derived from its table: what Electron's main process
 * and the web player's WebSocket carry to and from the renderer. An answer is given at once.
 */
export type BridgeHost = {
  [M in AskMethod]: (...args: BridgeArgs<M>) => BridgeAnswer<M> | Promise<BridgeAnswer<M>>;
} & {
  [M in TellMethod]: (...args: BridgeArgs<M>) => void;
} & { onMessage(listener: (message: BridgeMessage) => void): Unsubscribe };

/**
 * Calls a method of the host with a request already checked against the contract (by main's IPC
 * handlers or the web player's frame schema): the one place either carrier dispatches.
 */
export function callHost<M extends BridgeMethod>(
  host: BridgeHost,
  method: M,
  request: BridgeRequest<M>,
): ReturnType<BridgeHost[M]> {
  // TypeScript cannot tie a method picked by a type parameter to its own arguments.
  const call = host[method] as unknown as (request: BridgeRequest<M>) => ReturnType<BridgeHost[M]>;
  return call.call(host, request);
}
