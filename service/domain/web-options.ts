import type { WebOptions } from '../../src/shared/web-content';
import type { ServiceConfig } from '../context';

/** What screens and the console are told of the service's options for web content. */
export function webOptionsOf(config: ServiceConfig): WebOptions {
  const tiles = config.mapTiles;
  return {
    tiles: tiles ? { attribution: tiles.attribution, max_zoom: tiles.maxZoom } : null,
    http_media: config.httpMedia,
    custom_network: config.customWidgetsNetwork,
  };
}
