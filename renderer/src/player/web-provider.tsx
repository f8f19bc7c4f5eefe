import { useMemo, type ReactNode } from 'react';
import type { PlayerState, WallboardBridge } from '../../../src/shared/bridge';
import { WidgetWebContext, type WidgetWeb } from '../widgets/web-context';

/**
 * What the player offers the widgets that show web content (iframe, map, custom): its state's
 * tile source and custom widgets' network (`PlayerState.web`, absent: neither), and the agent's
 * framing check (it reads the page's headers, which a page cannot).
 */
export function WebProvider({
  web,
  bridge,
  children,
}: {
  web: PlayerState['web'];
  bridge: WallboardBridge;
  children: ReactNode;
}) {
  const tiles = web?.tiles ?? null;
  const customNetwork = web?.custom_network ?? false;
  const value = useMemo<WidgetWeb>(
    () => ({ tiles, customNetwork, framing: (url) => bridge.checkFraming({ url }) }),
    [tiles, customNetwork, bridge],
  );
  return <WidgetWebContext.Provider value={value}>{children}</WidgetWebContext.Provider>;
}
