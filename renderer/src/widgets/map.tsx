import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { WidgetProps } from './types';
import { MapShapes } from './map-shapes';
import { useWidgetWeb } from './web-context';
import './map.css';

/** Without `coords.zoom`: a city and its districts. */
export const DEFAULT_ZOOM = 13;
/** The deepest zoom without a tile source: shapes alone need no tiles. */
const SHAPES_MAX_ZOOM = 22;

/**
 * A wall screen's map: nothing to click, drag or scroll, and no animation (a screen is not
 * watched moving). Leaflet's own attribution control is a link with Leaflet's name in it: the
 * widget writes the tile source's attribution itself, always.
 */
const MAP_OPTIONS: L.MapOptions = {
  zoomControl: false,
  attributionControl: false,
  dragging: false,
  touchZoom: false,
  scrollWheelZoom: false,
  doubleClickZoom: false,
  boxZoom: false,
  keyboard: false,
  zoomAnimation: false,
  fadeAnimation: false,
  markerZoomAnimation: false,
  inertia: false,
  // Shapes drawn as SVG paths (Leaflet's default renderer in a browser that has SVG).
  preferCanvas: false,
  zoomSnap: 0,
};

/**
 * The map variant: the service's tiles (through the screen's cache) at `coords`, with markers,
 * circles, polygons and polylines drawn over them. The map is made once; data, size and tile
 * changes update it in place. Without a tile source the shapes are drawn on the board's ground.
 */
export function MapWidget({ data, width, height, theme, fontSize }: WidgetProps<'map'>) {
  const { tiles } = useWidgetWeb();
  const box = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<L.Map | null>(null);
  const maxZoom = tiles ? tiles.max_zoom : SHAPES_MAX_ZOOM;
  const zoom = Math.min(Math.max(data.coords.zoom ?? DEFAULT_ZOOM, 0), maxZoom);
  const { lat, lon } = data.coords;

  useEffect(() => {
    if (!box.current) return;
    const made = L.map(box.current, MAP_OPTIONS);
    setMap(made);
    return () => {
      made.remove();
      setMap(null);
    };
  }, []);

  // The size first, so the view is centred on the box the map now has.
  useEffect(() => {
    map?.invalidateSize({ animate: false, pan: false });
  }, [map, width, height]);

  useEffect(() => {
    if (!map) return;
    map.setMaxZoom(maxZoom);
    map.setView([lat, lon], zoom, { animate: false });
  }, [map, lat, lon, zoom, maxZoom, width, height]);

  const tileUrl = tiles?.url ?? null;
  useEffect(() => {
    if (!map || !tileUrl) return;
    const layer = L.tileLayer(tileUrl, { maxZoom, maxNativeZoom: maxZoom, className: 'map-tiles' }).addTo(
      map,
    );
    return () => {
      layer.remove();
    };
  }, [map, tileUrl, maxZoom]);

  const shapes = useMemo(() => (map ? new MapShapes(map) : null), [map]);
  useEffect(() => shapes?.show(data, theme, fontSize), [shapes, data, theme, fontSize]);
  useEffect(() => () => shapes?.clear(), [shapes]);

  return (
    <div
      className="map"
      data-tiles={tiles ? 'on' : 'off'}
      style={{ width, height, fontSize, color: theme.foreground, fontFamily: theme.fontFamily }}
    >
      <div ref={box} className="map-canvas" style={{ background: theme.background }} />
      {tiles ? (
        <div className="map-attribution" style={{ background: theme.background, color: theme.muted }}>
          {tiles.attribution}
        </div>
      ) : (
        <div className="map-note" style={{ background: theme.background, color: theme.muted }}>
          No map tiles configured
        </div>
      )}
    </div>
  );
}
