import { z } from 'zod';
import { webUrlSchema } from './common';
import { storable } from './limits';

/**
 * Content from the web (docs/api/web-content.md): what the service allows and offers, told to
 * screens with their settings, and what the player needs to show web pages, maps and custom
 * widgets. Screens never learn the upstream tile server: the service fetches tiles for them.
 */

/** A map tile source as screens see it: tiles come from the service's `GET /map/tiles/{z}/{x}/{y}`. */
export const mapTilesSchema = z.object({
  /** Shown on every map, as the tile source's usage policy asks (OpenStreetMap's does). */
  attribution: z.string().max(500),
  max_zoom: z.int().min(0).max(22),
});
export type MapTiles = z.infer<typeof mapTilesSchema>;

/** Service-wide options, the same for every screen (part of `GET /devices/:tag/settings`). */
export const webOptionsSchema = z.object({
  /** Null: the service has no tile source (`--no-map-tiles`): maps draw their shapes on a blank ground. */
  tiles: mapTilesSchema.nullable(),
  /** Media, backgrounds and notification sounds may be plain http URLs (`--allow-http-media`). */
  http_media: z.boolean(),
  /** Custom widgets may reach the network over https (`--custom-widgets-network`); else they have none. */
  custom_network: z.boolean(),
});
export type WebOptions = z.infer<typeof webOptionsSchema>;

/** What an older service (without these options) means: its defaults then, minus maps it cannot serve. */
export const WEB_OPTIONS_FALLBACK: WebOptions = { tiles: null, http_media: false, custom_network: false };

/**
 * What the renderer uses (`PlayerState.web`): the tile URL template it loads tiles from (the
 * screen's own cache: `wallboard-media://tiles/{z}/{x}/{y}` in Electron, `/tiles/{z}/{x}/{y}` on
 * the web player's server), and whether custom widgets get the network.
 */
export const playerWebSchema = z.object({
  tiles: mapTilesSchema.extend({ url: z.string().max(2048) }).nullable(),
  custom_network: z.boolean(),
});
export type PlayerWeb = z.infer<typeof playerWebSchema>;

/**
 * Whether a page can be shown inside a frame, as the screen finds it from the page's own headers
 * (X-Frame-Options, Content-Security-Policy frame-ancestors): `refused` pages are drawn by
 * Electron in a view of their own when full-screen, and said so elsewhere; `unreachable` pages
 * did not answer from this screen.
 */
export const framingSchema = z.object({
  url: z.string().max(4096),
  verdict: z.enum(['allowed', 'refused', 'unreachable']),
  /** For the face and the log: which header refused, or what failed. */
  detail: z.string().max(500),
});
export type Framing = z.infer<typeof framingSchema>;

export const framingRequestSchema = z.strictObject({ url: webUrlSchema });

/**
 * A full-screen web page the shell may draw itself (Electron: an isolated view over the window);
 * `url: null` takes it down. `shown: false`: the host cannot, and the renderer frames it.
 */
export const webPageRequestSchema = z.strictObject({
  url: webUrlSchema.nullable(),
  reload_seconds: z.int().min(10).max(86400).nullable(),
});
export type WebPageRequest = z.infer<typeof webPageRequestSchema>;
export const webPageShownSchema = z.strictObject({ shown: z.boolean() });

/** Code is stored text too: no NUL, no lone surrogate (limits.ts), which PostgreSQL refuses. */
const codeText = (what: string) =>
  storable(z.string().max(65_536, `must be at most 65536 characters of ${what}`)).default('');

/**
 * A custom widget's own code (the widget's `code`, null for every other variant). It runs in a
 * sandboxed frame with an opaque origin; the flow's data reaches it by `postMessage` on every
 * update (docs/player.md, "Custom widgets").
 */
export const customCodeSchema = z.strictObject({
  html: codeText('HTML'),
  css: codeText('CSS'),
  script: codeText('JavaScript'),
});
export type CustomCode = z.infer<typeof customCodeSchema>;

/** The weather conditions the service reports (from the provider's WMO codes) and the widget draws. */
export const WEATHER_CONDITIONS = [
  'clear',
  'partly-cloudy',
  'cloudy',
  'fog',
  'drizzle',
  'rain',
  'freezing-rain',
  'snow',
  'showers',
  'thunderstorm',
] as const;
export const weatherConditionSchema = z.enum(WEATHER_CONDITIONS, {
  error: `must be one of ${WEATHER_CONDITIONS.map((c) => `"${c}"`).join(', ')}`,
});
export type WeatherCondition = z.infer<typeof weatherConditionSchema>;

/** The service refreshes a location's forecast at most this often; older data is marked stale after `WEATHER_STALE_MS`. */
export const WEATHER_REFRESH_MS = 10 * 60 * 1000;
export const WEATHER_STALE_MS = 3 * WEATHER_REFRESH_MS;
