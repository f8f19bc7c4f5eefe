import { useEffect } from 'react';
import type { WallboardBridge } from '../../src/shared/bridge';
import { IdentifyOverlay } from './player/identify-overlay';
import { answerScreenshot } from './player/screenshot';

/**
 * What the page does for the agent's remote commands, whatever it shows: identify the screen,
 * reload itself, and capture itself (the web player's screenshots; Electron's shell captures its
 * window and reloads it without asking the page).
 */
const reloadPage = () => window.location.reload();

export function RemoteCommands({
  bridge,
  reload = reloadPage,
}: {
  bridge: WallboardBridge;
  /** How the page reloads: a test's stands in for the real one. */
  reload?: () => void;
}) {
  useEffect(
    () =>
      bridge.onMessage((message) => {
        if (message.kind === 'reload') {
          bridge.log({ level: 'info', message: `reloading the page: ${message.reason}` });
          reload();
        } else if (message.kind === 'screenshot') {
          void answerScreenshot(bridge, message.request_id);
        }
      }),
    [bridge, reload],
  );
  return <IdentifyOverlay bridge={bridge} />;
}
