import type { WallboardBridge } from '../../src/shared/bridge';

declare global {
  interface Window {
    /** Set by the Electron preload or the web player's bridge script; absent elsewhere. */
    wallboard?: WallboardBridge;
  }
}

export function findBridge(): WallboardBridge | null {
  return window.wallboard ?? null;
}
