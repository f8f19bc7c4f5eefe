import type { BridgeMessage, PlayerState, RendererLog, ShowingReport, Unsubscribe } from '../shared/bridge';

/**
 * The agent's side of the bridge contract: what Electron's main process and the web player's
 * WebSocket carry to and from the renderer.
 */
export interface BridgeHost {
  getState(): PlayerState;
  onMessage(listener: (message: BridgeMessage) => void): Unsubscribe;
  reportShowing(report: ShowingReport): void;
  log(entry: RendererLog): void;
}
