import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { PlayerState, WallboardBridge } from '../../src/shared/bridge';
import { Player } from './player/player';
import { SetupScreen } from './pairing-screen';
import { OverrideScreen } from './screen/override-screen';
import { ScreenOff } from './screen/screen-off';
import { Stage } from './screen/stage';
import { FlowStore } from './store/flow-store';
import { WaitingScreen } from './waiting-screen';

const UPRIGHT = { rotation: 0, off: false } as const;

/**
 * The screen: whatever the state says to show, on a stage turned as the state's display says.
 * An emergency override (`state.override`) is drawn over all of it, the player kept underneath
 * (paused, so that clearing it returns to what played); `children` (the remote commands' faces)
 * are drawn over that, on the same stage.
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
      else if (message.kind === 'metricsBatch') {
        for (const flow of message.flows) store.set(flow.flow_tag, flow.data);
      } else if (message.kind === 'metrics') store.set(message.flow_tag, message.data); // an agent before batches
    });
    return () => {
      active = false;
      unsubscribe();
    };
  }, [bridge, store]);

  const log = useCallback(
    (level: 'info' | 'warn', message: string) => bridge?.log({ level, message: message.slice(0, 4096) }),
    [bridge],
  );

  const display = state?.display ?? UPRIGHT;
  const override = state?.override ?? null;
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
          cover={override ? `override:${override.id}` : null}
          waiting={
            <WaitingScreen
              headline="Waiting for a playlist"
              detail="Assign a playlist to this device in the Wallboard service."
              device={state.device}
            />
          }
        />
      )}
      {state && override && (
        <OverrideScreen key={override.id} override={override} media={state.media} log={log} />
      )}
      {children}
    </Stage>
  );
}
