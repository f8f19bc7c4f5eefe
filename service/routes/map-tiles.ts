import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ServiceContext } from '../context';
import { DomainError, invalid } from '../domain/errors';
import { HttpError } from '../http/errors';
import { TILE_MIN_AGE_MS, TileProxy, TileUpstreamError } from '../map/tile-proxy';

/**
 * Names the service to tile sources, as OpenStreetMap's tile usage policy asks: the product and
 * its version, and that it is a proxy caching for many screens.
 */
export const TILE_USER_AGENT = 'Wallboard/0.1.0 (digital signage service; caching map tile proxy)';

// Digits only: a number parser would take " " or "1e1" for a tile too.
const NO_TILE_SOURCE = 'this service has no map tile source (it runs with --map-tiles none)';

const coordinate = z.string().regex(/^\d{1,7}$/, 'must be a whole number from 0');
const tileParams = z.object({ z: coordinate, x: coordinate, y: coordinate });

/** `GET /map/tiles/:z/:x/:y`: map tiles for screens and the console (docs/api/web-content.md). */
export function mapTileRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const source = ctx.config.mapTiles;
  const proxy = source
    ? new TileProxy(source, { now: () => ctx.clock.now().getTime(), userAgent: TILE_USER_AGENT })
    : null;

  return async (app) => {
    app.get(
      '/map/tiles/:z/:x/:y',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['web content'],
          summary: "Returns a map tile (PNG, JPEG or WebP) from the service's tile source, cached",
          description:
            'The tile source is `--map-tiles` (OpenStreetMap by default); the service fetches each tile ' +
            'once, keeps it at least a day, and answers it with `cache-control: private, max-age=86400`. ' +
            '`z` is 0 to `--map-max-zoom`, `x` and `y` 0 to 2^z - 1. 404 when the service has no tile ' +
            'source (`--map-tiles none`), 502 when the source failed and the tile is not kept.',
          params: tileParams,
        },
      },
      async (request, reply) => {
        if (!source || !proxy) {
          throw new DomainError('not_found', NO_TILE_SOURCE);
        }
        const zoom = Number(request.params.z);
        const x = Number(request.params.x);
        const y = Number(request.params.y);
        if (zoom > source.maxZoom) {
          throw invalid(`params.z must be at most ${source.maxZoom}, the tile source's deepest zoom`, [
            { path: 'params.z', message: `must be at most ${source.maxZoom}` },
          ]);
        }
        const last = 2 ** zoom - 1;
        for (const [name, value] of [
          ['x', x],
          ['y', y],
        ] as const) {
          if (value > last) {
            throw invalid(`params.${name} must be at most ${last} at zoom ${zoom}`, [
              { path: `params.${name}`, message: `must be at most ${last} at zoom ${zoom}` },
            ]);
          }
        }
        try {
          const tile = await proxy.tile(zoom, x, y);
          return reply
            .type(tile.contentType)
            .header('cache-control', `private, max-age=${TILE_MIN_AGE_MS / 1000}`)
            .send(tile.body);
        } catch (error) {
          if (error instanceof TileUpstreamError) throw new HttpError(502, 'bad_gateway', error.message);
          throw error;
        }
      },
    );
  };
}
