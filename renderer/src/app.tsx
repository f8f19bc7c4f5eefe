import { useEffect, useState, type ReactNode } from 'react';
import type { PlayerState, WallboardBridge } from '../../src/shared/bridge';
import { Player } from './player/player';
import { SetupScreen } from './pairing-screen';
import { ScreenOff } from './screen/screen-off';
import { Stage } from './screen/stage';
import { FlowStore } from './store/flow-store';
import { WaitingScreen } from './waiting-screen';

const UPRIGHT = { rotation: 0, off: false } as const;

/**
 * The screen: whatever the state says to show, on a stage turned as the state's display says.
 * `children` (the remote commands' faces) are drawn over it, on the same stage.
 */
export function App({ bridge, children }: { bridge: WallboardBridge | null; children?: ReactNode }) {
  const [state, setState] = useState<PlayerState | null>(null);
  const [store] = useState(() => new FlowStore({ mode: 'frame' }));

  useEffect(() => {
    if (!bridge) return;
    let active = true;
    // The bridge's client checked the state where it entered this process (src/shared/bridge-client.ts).
    const accept = (next: PlayerState) => {
      store.load(next);
      if (active) setState(next);
    };
    bridge.getState().then(accept, (error: unknown) => {
      bridge.log({ level: 'error', message: `could not read the state: ${String(error)}` });
    });
    const unsubscribe = bridge.onMessage((message) => {
      if (message.kind === 'state') accept(message.state);
      else if (message.kind === 'metrics') store.set(message.flow_tag, message.data);
    });
    return () => {
      active = false;
      unsubscribe();
    };
  }, [bridge, store]);

  const display = state?.display ?? UPRIGHT;
  return (
    <Stage rotation={display.rotation}>
      {!bridge ? (
        <WaitingScreen headline="Wallboard" detail="No device agent is connected to this player." />
      ) : !state ? (
        <WaitingScreen headline="Wallboard" detail="Starting…" />
      ) : state.setup ? (
        // Looking for a service, pairing, or refused: the whole screen says so, cached content or not.
        display.off ? (
          <ScreenOff />
        ) : (
          <SetupScreen setup={state.setup} device={state.device} bridge={bridge} />
        )
      ) : (
        <Player
          state={state}
          store={store}
          bridge={bridge}
          off={display.off}
          waiting={
            <WaitingScreen
              headline="Waiting for a playlist"
              detail="Assign a playlist to this device in the Wallboard service."
              device={state.device}
            />
          }
        />
      )}
      {children}
    </Stage>
  );
}
