import { useEffect, useState } from 'react';
import type { BridgeMessage, WallboardBridge } from '../../../src/shared/bridge';
import './identify-overlay.css';

type Identify = Extract<BridgeMessage, { kind: 'identify' }>;

/**
 * The `identify` command: the device's name and tag over everything, large enough to read across
 * a room, for the seconds the agent says. Another identify meanwhile starts the time again.
 */
export function IdentifyOverlay({ bridge }: { bridge: Pick<WallboardBridge, 'onMessage'> }) {
  const [shown, setShown] = useState<Identify | null>(null);

  useEffect(
    () =>
      bridge.onMessage((message) => {
        // A new object each time, so that the timer below starts again.
        if (message.kind === 'identify') setShown({ ...message });
      }),
    [bridge],
  );

  useEffect(() => {
    if (!shown) return;
    const timer = setTimeout(() => setShown(null), shown.seconds * 1000);
    return () => clearTimeout(timer);
  }, [shown]);

  if (!shown) return null;
  return (
    <div className="identify" role="status" aria-label="this screen" data-testid="identify">
      <div className="identify-name" data-testid="identify-name">
        {shown.name || shown.tag}
      </div>
      <div className="identify-tag" data-testid="identify-tag">
        {shown.tag}
      </div>
    </div>
  );
}
