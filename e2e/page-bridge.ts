// The bridge a test page gets in place of an agent's, installed with
// `page.addInitScript(installPageBridge, state)`: it hands over `state` (null: the agent's answer
// was refused), keeps what the page logs on `window.bridgeLogs` as "level: message", and pushes
// messages with `window.pushBridgeMessage`. Playwright sends the function's source to the page,
// so it uses nothing from outside itself.
import type {} from '../renderer/src/bridge';
import type { BridgeMessage, PlayerState } from '../src/shared/bridge';

/** What the page bridge leaves on `window` for the tests. */
export interface PageBridgeWindow {
  bridgeLogs: string[];
  pushBridgeMessage(message: BridgeMessage): void;
}

export function installPageBridge(initial: PlayerState | null): void {
  const listeners = new Set<(message: BridgeMessage) => void>();
  const logs: string[] = [];
  const testWindow: PageBridgeWindow = {
    bridgeLogs: logs,
    pushBridgeMessage: (message) => listeners.forEach((listener) => listener(message)),
  };
  Object.assign(window, testWindow);
  window.wallboard = {
    getState: () =>
      initial
        ? Promise.resolve(initial)
        : Promise.reject(new Error("the device agent's answer to getState does not fit the contract")),
    onMessage: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reportShowing: () => undefined,
    reportFailure: () => undefined,
    chooseService: () => undefined,
    reportPlay: () => undefined,
    screenshotTaken: () => undefined,
    checkFraming: ({ url }) => Promise.resolve({ url, verdict: 'allowed' as const, detail: '' }),
    showWebPage: () => Promise.resolve({ shown: false }),
    serviceTime: () => Promise.resolve({ now: null }),
    log: (entry) => logs.push(`${entry.level}: ${entry.message}`),
  };
}
