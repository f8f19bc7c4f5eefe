import { useQuery } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { NO_WEB, WidgetWebContext, type WidgetWeb } from '../../../renderer/src/widgets/web-context';
import { webOptionsSchema } from '../../../src/shared/web-content';
import { api } from '../api/client';

/** The service's tiles, on the console's own origin with the session cookie (docs/api/web-content.md). */
export const CONSOLE_TILE_URL = '/map/tiles/{z}/{x}/{y}';

/** Service-wide, changed only by a restart of the service: asked once a session. */
export const webOptionsQuery = {
  queryKey: ['web-options'],
  queryFn: () => api(webOptionsSchema, '/web-options'),
  staleTime: Infinity,
};

/**
 * What the console's board previews offer widgets that show web content: the service's map
 * tiles with their attribution (maps draw their shapes alone until the options are known, or
 * when the service has no tile source); no network for custom widgets, and every page tried in
 * its frame, as NO_WEB says.
 */
export function ConsoleWidgetWeb({ children }: { children: ReactNode }) {
  const options = useQuery(webOptionsQuery);
  const tiles = options.data?.tiles ?? null;
  const value = useMemo<WidgetWeb>(
    () => ({ ...NO_WEB, tiles: tiles && { url: CONSOLE_TILE_URL, ...tiles } }),
    [tiles],
  );
  return <WidgetWebContext.Provider value={value}>{children}</WidgetWebContext.Provider>;
}
