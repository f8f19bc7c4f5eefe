import L from 'leaflet';
import type { VariantMetrics } from '../../../src/shared/metrics';
import type { ThemeTokens } from '../../../src/shared/theme';

type MapData = VariantMetrics['map'];
type LatLng = [number, number];

/** One shape of the data as Leaflet draws it: what it is, where, how it looks, and its label. */
type Shape =
  | { kind: 'area'; points: LatLng[]; style: L.PathOptions; label?: string }
  | { kind: 'line'; points: LatLng[]; style: L.PathOptions; label?: string }
  | { kind: 'circle'; at: LatLng; radius: number; style: L.PathOptions; label?: string }
  | { kind: 'marker'; at: LatLng; radius: number; style: L.PathOptions; label?: string };

/** Every shape of the data, coloured from the data or the theme's accent; markers last, on top of the areas they are in. */
function shapesOf(data: MapData, theme: ThemeTokens, fontSize: number): Shape[] {
  const look = (color: string | undefined): L.PathOptions => ({
    color: color ?? theme.accent,
    weight: Math.max(2, fontSize * 0.15),
    opacity: 0.9,
    fillOpacity: 0.25,
  });
  return [
    ...(data.polygons ?? []).map((shape): Shape => ({
      kind: 'area',
      points: shape.points,
      style: look(shape.color),
      label: shape.label,
    })),
    ...(data.polylines ?? []).map((shape): Shape => ({
      kind: 'line',
      points: shape.points,
      style: { ...look(shape.color), fill: false },
      label: shape.label,
    })),
    ...(data.circles ?? []).map((circle): Shape => ({
      kind: 'circle',
      at: [circle.lat, circle.lon],
      radius: circle.radius,
      style: look(circle.color),
      label: circle.label,
    })),
    ...(data.markers ?? []).map((marker): Shape => ({
      kind: 'marker',
      at: [marker.lat, marker.lon],
      radius: Math.max(4, fontSize * 0.4),
      style: {
        color: theme.background,
        weight: Math.max(1.5, fontSize * 0.1),
        fillColor: marker.color ?? theme.accent,
        fillOpacity: 1,
      },
      label: marker.label,
    })),
  ];
}

function layerOf(shape: Shape): L.Path {
  switch (shape.kind) {
    case 'area':
      return L.polygon(shape.points, shape.style);
    case 'line':
      return L.polyline(shape.points, shape.style);
    case 'circle':
      return L.circle(shape.at, { ...shape.style, radius: shape.radius });
    case 'marker':
      return L.circleMarker(shape.at, { ...shape.style, radius: shape.radius });
  }
}

/** Moves and restyles a layer made for a shape of the same kind. */
function update(layer: L.Path, shape: Shape): void {
  layer.setStyle(shape.style);
  if (shape.kind === 'area' || shape.kind === 'line') (layer as L.Polyline).setLatLngs(shape.points);
  else (layer as L.CircleMarker).setLatLng(shape.at).setRadius(shape.radius);
}

function label(layer: L.Path, text: string | undefined, marker: boolean, fontSize: number): void {
  layer.unbindTooltip();
  if (!text) return;
  // An element, not the string: Leaflet would take a string for HTML.
  const element = document.createElement('span');
  element.textContent = text;
  layer.bindTooltip(element, {
    permanent: true,
    direction: marker ? 'top' : 'center',
    className: 'map-label',
    offset: marker ? [0, -fontSize * 0.4] : [0, 0],
  });
}

/**
 * The shapes on a map, kept in step with the data: a shape of the same kind at the same place in
 * the lists is moved and restyled rather than made again, so a fleet map whose vehicles move a few
 * times a second redraws a few paths, not every path and label.
 */
export class MapShapes {
  private drawn: { shape: Shape; layer: L.Path }[] = [];

  constructor(private readonly map: L.Map) {}

  show(data: MapData, theme: ThemeTokens, fontSize: number): void {
    const next = shapesOf(data, theme, fontSize);
    for (const extra of this.drawn.splice(next.length)) extra.layer.remove();
    next.forEach((shape, index) => {
      const old = this.drawn[index];
      if (old && old.shape.kind === shape.kind) {
        if (JSON.stringify(old.shape) === JSON.stringify(shape)) return;
        update(old.layer, shape);
        // A marker's label stands above it, by its size.
        const moved =
          shape.kind === 'marker' && old.shape.kind === 'marker' && old.shape.radius !== shape.radius;
        if (old.shape.label !== shape.label || moved)
          label(old.layer, shape.label, shape.kind === 'marker', fontSize);
        old.shape = shape;
        return;
      }
      old?.layer.remove();
      const layer = layerOf(shape).addTo(this.map);
      label(layer, shape.label, shape.kind === 'marker', fontSize);
      this.drawn[index] = { shape, layer };
    });
  }

  clear(): void {
    for (const { layer } of this.drawn) layer.remove();
    this.drawn = [];
  }
}
