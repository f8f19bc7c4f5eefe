import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import type { VariantMetrics } from '../../../src/shared/metrics';
import { MapWidget } from './map';
import { itShowsFrameFaces, theme, widgetProps } from './testing/numbers-frame';
import { NO_WEB, WidgetWebContext, type WidgetWeb } from './web-context';

/**
 * Tiles from the test's own server on the loopback address (Vite's, which serves the repository):
 * one picture for every tile, told apart by the query, so each request is seen.
 */
const TILE_PATH = '/renderer/src/widgets/testing/map-tile.svg';
const TILES: WidgetWeb = {
  ...NO_WEB,
  tiles: { url: `${TILE_PATH}?z={z}&x={x}&y={y}`, attribution: '© Test Tiles contributors', max_zoom: 18 },
};

const withWeb = (web: WidgetWeb, children: ReactNode) => (
  <WidgetWebContext.Provider value={web}>{children}</WidgetWebContext.Provider>
);

const lyon = (): VariantMetrics['map'] => ({
  coords: { lat: 45.76, lon: 4.84, zoom: 14 },
  markers: [
    { lat: 45.76, lon: 4.84, label: 'Office', color: '#ff0000' },
    { lat: 45.765, lon: 4.85 },
  ],
  circles: [{ lat: 45.755, lon: 4.83, radius: 300, label: 'Delivery zone' }],
  polygons: [
    {
      points: [
        [45.77, 4.82],
        [45.77, 4.83],
        [45.765, 4.83],
      ],
      label: 'Park',
      color: 'green',
    },
  ],
  polylines: [
    {
      points: [
        [45.75, 4.82],
        [45.76, 4.86],
      ],
    },
  ],
});

const paths = (root: Element) => [...root.querySelectorAll<SVGPathElement>('.leaflet-overlay-pane svg path')];
const tileImages = (root: Element) => [...root.querySelectorAll<HTMLImageElement>('img.leaflet-tile')];
/** Every tile the page asked the server for. */
const tileRequests = () =>
  performance
    .getEntriesByType('resource')
    .map((entry) => entry.name)
    .filter((name) => name.includes(TILE_PATH));

describe('map widget', () => {
  it('draws the tiles at the coordinates, its shapes as SVG paths with their labels, and the attribution', async () => {
    const screen = await render(
      withWeb(TILES, <MapWidget {...widgetProps<'map'>(lyon(), { width: 600, height: 400 })} />),
    );
    await expect.element(screen.getByText('© Test Tiles contributors')).toBeVisible();
    for (const label of ['Office', 'Delivery zone', 'Park'])
      await expect.element(screen.getByText(label)).toBeVisible();

    // One polygon, one polyline, one circle, two markers.
    expect(paths(screen.container)).toHaveLength(5);
    const fills = paths(screen.container).map((path) => path.getAttribute('fill'));
    // Where the data gives no color, the theme's accent; a polyline is a line alone.
    expect(fills).toEqual(['green', 'none', theme.accent, '#ff0000', theme.accent]);
    expect(paths(screen.container)[1]!.getAttribute('stroke')).toBe(theme.accent);

    await expect
      .poll(() => tileImages(screen.container).filter((img) => img.complete && img.naturalWidth > 0).length)
      .toBeGreaterThan(0);
    const zooms = new Set(tileImages(screen.container).map((img) => new URL(img.src).searchParams.get('z')));
    expect(zooms).toEqual(new Set(['14']));
    expect(tileRequests().some((url) => url.includes('z=14'))).toBe(true);

    // A wall screen: nothing to click.
    expect(screen.container.querySelector('.leaflet-control-zoom')).toBeNull();
    expect(screen.container.querySelector('.leaflet-control-attribution')).toBeNull();
    expect(screen.container.querySelector('.leaflet-container')!.classList).not.toContain('leaflet-grab');

    // The first marker is at the centre of the box.
    const box = screen.container.querySelector('.map')!.getBoundingClientRect();
    const office = paths(screen.container)[3]!.getBoundingClientRect();
    expect(office.left + office.width / 2 - box.left).toBeCloseTo(300, 0);
    expect(office.top + office.height / 2 - box.top).toBeCloseTo(200, 0);
  });

  it('follows new data and a new size without making the map again', async () => {
    const props = widgetProps<'map'>(lyon(), { width: 600, height: 400 });
    const screen = await render(withWeb(TILES, <MapWidget {...props} />));
    await expect.element(screen.getByText('Office')).toBeVisible();
    const container = screen.container.querySelector('.leaflet-container');

    const moved: VariantMetrics['map'] = {
      coords: { lat: 48.85, lon: 2.35, zoom: 11 },
      markers: [{ lat: 48.85, lon: 2.35, label: 'Paris' }],
    };
    await screen.rerender(withWeb(TILES, <MapWidget {...props} data={moved} width={300} height={200} />));
    await expect.element(screen.getByText('Paris')).toBeVisible();
    expect(screen.container.querySelector('.leaflet-container')).toBe(container);
    expect(screen.container.textContent).not.toContain('Office');
    expect(paths(screen.container)).toHaveLength(1);
    await expect
      .poll(() => new Set(tileImages(screen.container).map((img) => new URL(img.src).searchParams.get('z'))))
      .toEqual(new Set(['11']));

    const box = screen.container.querySelector('.map')!.getBoundingClientRect();
    expect(box).toMatchObject({ width: 300, height: 200 });
    const marker = paths(screen.container)[0]!.getBoundingClientRect();
    expect(marker.left + marker.width / 2 - box.left).toBeCloseTo(150, 0);
    expect(marker.top + marker.height / 2 - box.top).toBeCloseTo(100, 0);
  });

  it('moves the shapes it drew rather than drawing them again, and relabels them', async () => {
    const props = widgetProps<'map'>(lyon(), { width: 600, height: 400 });
    const screen = await render(withWeb(TILES, <MapWidget {...props} />));
    await expect.element(screen.getByText('Office')).toBeVisible();
    const before = paths(screen.container);
    const office = before.at(-2)!;
    const officeAt = office.getAttribute('d');

    const data = lyon();
    data.markers![0] = { lat: 45.762, lon: 4.845, label: 'Head office', color: '#ff0000' };
    await screen.rerender(withWeb(TILES, <MapWidget {...props} data={data} />));
    await expect.element(screen.getByText('Head office')).toBeVisible();
    const after = paths(screen.container);
    expect(after).toHaveLength(before.length);
    after.forEach((path, index) => expect(path).toBe(before[index]));
    expect(office.getAttribute('d')).not.toBe(officeAt);
    expect(screen.container.textContent).not.toContain('Office ');
    expect(screen.container.querySelectorAll('.map-label')).toHaveLength(3);

    // Fewer shapes: the extra ones go.
    await screen.rerender(
      withWeb(TILES, <MapWidget {...props} data={{ coords: data.coords, markers: [] }} />),
    );
    expect(paths(screen.container)).toHaveLength(0);
    expect(screen.container.querySelectorAll('.map-label')).toHaveLength(0);
  });

  it('zooms at 13 by default and never past the tile source', async () => {
    const screen = await render(
      withWeb(
        { ...TILES, tiles: { ...TILES.tiles!, max_zoom: 12 } },
        <MapWidget {...widgetProps<'map'>({ coords: { lat: 45.76, lon: 4.84 } })} />,
      ),
    );
    await expect.poll(() => tileImages(screen.container).length).toBeGreaterThan(0);
    expect(
      new Set(tileImages(screen.container).map((img) => new URL(img.src).searchParams.get('z'))),
    ).toEqual(new Set(['12']));
    const defaults = await render(
      withWeb(TILES, <MapWidget {...widgetProps<'map'>({ coords: { lat: 45.76, lon: 4.84 } })} />),
    );
    await expect.poll(() => tileImages(defaults.container).length).toBeGreaterThan(0);
    expect(
      new Set(tileImages(defaults.container).map((img) => new URL(img.src).searchParams.get('z'))),
    ).toEqual(new Set(['13']));
  });

  it('draws the shapes on the board ground, saying so, without a tile source', async () => {
    const screen = await render(withWeb(NO_WEB, <MapWidget {...widgetProps<'map'>(lyon())} />));
    await expect.element(screen.getByText('No map tiles configured')).toBeVisible();
    await expect.element(screen.getByText('Office')).toBeVisible();
    expect(paths(screen.container)).toHaveLength(5);
    expect(tileImages(screen.container)).toEqual([]);
    expect(screen.container.querySelector<HTMLElement>('.map')!.dataset.tiles).toBe('off');
    expect(getComputedStyle(screen.container.querySelector('.map-canvas')!).backgroundColor).toBe(
      'rgb(13, 17, 23)',
    );
  });

  it('writes labels as text, never as HTML', async () => {
    const label = '<img src="x" onerror="window.mapLabelRan = true">Gate <b>B</b>';
    const screen = await render(
      withWeb(
        NO_WEB,
        <MapWidget
          {...widgetProps<'map'>({ coords: { lat: 1, lon: 1 }, markers: [{ lat: 1, lon: 1, label }] })}
        />,
      ),
    );
    await expect.element(screen.getByText(label)).toBeVisible();
    expect(screen.container.querySelector('.map-label img, .map-label b')).toBeNull();
  });

  itShowsFrameFaces('map', { coords: { lat: 200, lon: 4 } }, lyon());
});
