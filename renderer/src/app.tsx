import { useEffect, useState } from 'react';
import type { PlayerState, WallboardBridge } from '../../src/shared/bridge';
import { playerStateSchema } from '../../src/shared/bridge';
import { describeIssues } from '../../src/shared/issues';
import { WaitingScreen } from './waiting-screen';

export function App({ bridge }: { bridge: WallboardBridge | null }) {
  const [state, setState] = useState<PlayerState | null>(null);

  useEffect(() => {
    if (!bridge) return;
    let active = true;
    const accept = (candidate: unknown) => {
      const parsed = playerStateSchema.safeParse(candidate);
      if (!parsed.success) {
        bridge.log({ level: 'warn', message: `ignored an invalid state: ${describeIssues(parsed.error)}` });
        return;
      }
      if (active) setState(parsed.data);
    };
    bridge.getState().then(accept, (error: unknown) => {
      bridge.log({ level: 'error', message: `could not read the state: ${String(error)}` });
    });
    const unsubscribe = bridge.onMessage((message) => {
      if (message.kind === 'state') accept(message.state);
    });
    return () => {
      active = false;
      unsubscribe();
    };
  }, [bridge]);

  if (!bridge) {
    return <WaitingScreen headline="Wallboard" detail="No device agent is connected to this player." />;
  }
  if (!state) {
    return <WaitingScreen headline="Wallboard" detail="Starting…" />;
  }
  return (
    <WaitingScreen
      headline="Waiting for a playlist"
      detail="Assign a playlist to this device in the Wallboard service."
      device={state.device}
    />
  );
}
