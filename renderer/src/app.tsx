import { useEffect, useState } from 'react';
import type { PlayerState, WallboardBridge } from '../../src/shared/bridge';
import { Player } from './player/player';
import { SetupScreen } from './pairing-screen';
import { FlowStore } from './store/flow-store';
import { WaitingScreen } from './waiting-screen';

export function App({ bridge }: { bridge: WallboardBridge | null }) {
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

  if (!bridge) {
    return <WaitingScreen headline="Wallboard" detail="No device agent is connected to this player." />;
  }
  if (!state) {
    return <WaitingScreen headline="Wallboard" detail="Starting…" />;
  }
  // Looking for a service, pairing, or refused: the whole screen says so, cached content or not.
  if (state.setup) {
    return <SetupScreen setup={state.setup} device={state.device} bridge={bridge} />;
  }
  return (
    <Player
      state={state}
      store={store}
      bridge={bridge}
      waiting={
        <WaitingScreen
          headline="Waiting for a playlist"
          detail="Assign a playlist to this device in the Wallboard service."
          device={state.device}
        />
      }
    />
  );
}
