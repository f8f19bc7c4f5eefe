import type { WallboardBridge } from '../../src/shared/bridge';
import { METRICS_QUERY, WEB_BRIDGE_PATH } from '../../src/shared/web-bridge-protocol';
import { connectWebSocketBridge } from './ws-bridge';

declare global {
  interface Window {
    /** Set by the Electron preload; absent elsewhere. */
    wallboard?: WallboardBridge;
  }
}

/**
 * The web player's bridge socket beside the page, or null for a page not served over HTTP(S). It
 * names the page's path (`?page=`): while the player swaps versions two pages are connected, and
 * the server tells the version on trial from the one on screen by it (docs/updates.md). And it
 * says the page takes flows' data in batches (`metricsBatch`).
 */
export function webSocketBridgeUrl(
  location: Pick<Location, 'protocol' | 'host' | 'pathname'>,
): string | null {
  const page = `?page=${encodeURIComponent(location.pathname)}&${METRICS_QUERY.name}=${METRICS_QUERY.batch}`;
  if (location.protocol === 'http:') return `ws://${location.host}${WEB_BRIDGE_PATH}${page}`;
  if (location.protocol === 'https:') return `wss://${location.host}${WEB_BRIDGE_PATH}${page}`;
  return null;
}

/**
 * Finds the agent's bridge and calls `show` with what the App should be given, now and whenever
 * that changes: the Electron preload's bridge; else, for a page served over HTTP(S), the web
 * player's WebSocket bridge; else null ("no agent"). A web page whose server has no agent behind
 * it (its first connection fails) is shown null until an agent answers; once one has, the bridge
 * stays, so a restarting agent does not blank the screen: the bridge reconnects by itself.
 */
export function findBridge(show: (bridge: WallboardBridge | null) => void): void {
  if (window.wallboard) {
    show(window.wallboard);
    return;
  }
  const url = webSocketBridgeUrl(window.location);
  if (!url) {
    show(null);
    return;
  }
  const bridge = connectWebSocketBridge(url);
  let reached = false;
  let shown: WallboardBridge | null = bridge;
  show(bridge);
  bridge.onConnectionChange((connected) => {
    reached ||= connected;
    const next = reached ? bridge : null;
    if (next === shown) return;
    shown = next;
    show(next);
  });
}
