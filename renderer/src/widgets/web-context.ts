import { createContext, useContext } from 'react';
import type { Framing, PlayerWeb } from '../../../src/shared/web-content';

/**
 * What a screen offers the widgets that show web content (iframe, map, custom): its tile source,
 * whether custom widgets get the network, and how to learn whether a page lets itself be framed.
 * The player provides it from its state and bridge; elsewhere (the console's previews) the
 * defaults hold: no tiles, no network, and every page tried in its frame.
 */
export interface WidgetWeb {
  tiles: PlayerWeb['tiles'];
  customNetwork: boolean;
  framing(url: string): Promise<Framing>;
}

export const NO_WEB: WidgetWeb = {
  tiles: null,
  customNetwork: false,
  framing: (url) => Promise.resolve({ url, verdict: 'allowed', detail: '' }),
};

export const WidgetWebContext = createContext<WidgetWeb>(NO_WEB);

export function useWidgetWeb(): WidgetWeb {
  return useContext(WidgetWebContext);
}
