// The board renderer against its reference boards (e2e/reference-board.ts): screenshots in each
// theme at four screen sizes, the layout math checked from the DOM, the widget states, and a
// metric update that redraws one widget only. The page's clock is paused at FROZEN_AT, so
// clocks, countdowns and "n min ago" draw the same on every run.
import type { Page } from '@playwright/test';
import type { BoardExport } from '../src/shared/board-export';
import { playerStateSchema, type PlayerState } from '../src/shared/bridge';
import { expect, test } from './fixtures';
import { installPageBridge, type PageBridgeWindow } from './page-bridge';
import {
  FROZEN_AT,
  referenceState,
  settingsState,
  STATUS_PAGE_URL,
  TAGS,
  TILE_PATH,
} from './reference-board';
import { pngTile, STATUS_PAGE } from './web-stand-ins';

interface Screen {
  name: string;
  width: number;
  height: number;
}

const SCREENS: Screen[] = [
  { name: '1920x1080', width: 1920, height: 1080 },
  { name: '3840x2160', width: 3840, height: 2160 },
  { name: '1280x1024', width: 1280, height: 1024 },
  { name: 'portrait-1080x1920', width: 1080, height: 1920 },
];
const THEMES = ['dark', 'light'] as const;

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

test.use({ locale: 'en-GB', timezoneId: 'UTC' });

function boardOf(state: PlayerState): BoardExport {
  const board = Object.values(state.boards)[0];
  if (!board) throw new Error('the state has no board');
  return board;
}

/**
 * Opens the player on `state` through a fake bridge, with the clock paused at FROZEN_AT, and
 * waits until every widget has drawn (widgets, fonts and the cached image).
 */
async function openBoard(
  page: Page,
  url: string,
  state: PlayerState,
  screen: Screen,
  options: { reducedMotion?: 'reduce' | 'no-preference' } = {},
): Promise<void> {
  // The App drops a state that fails its schema: fail here instead, with the reason.
  playerStateSchema.parse(state);
  await page.setViewportSize({ width: screen.width, height: screen.height });
  await page.emulateMedia({ reducedMotion: options.reducedMotion ?? 'no-preference' });
  await page.clock.install({ time: (FROZEN_AT - 1) * 1000 });
  await page.clock.pauseAt(FROZEN_AT * 1000);
  await page.addInitScript(installPageBridge, state);
  await serveWebContent(page, url);
  await page.goto(url);
  const board = boardOf(state);
  await expect(page.locator('section.widget')).toHaveCount(board.widgets.length);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  for (const image of await page.locator('section.widget img').all()) {
    await expect(image).toHaveJSProperty('complete', true);
  }
}

/** The map's tiles on the page's own origin (as the web player serves them), and the framed page. */
async function serveWebContent(page: Page, url: string): Promise<void> {
  await page.route(`${new URL(TILE_PATH, url).href}**`, (route) => {
    const [z, x, y] = new URL(route.request().url()).pathname.split('/').slice(-3).map(Number);
    return route.fulfill({ contentType: 'image/png', body: pngTile(z!, x!, y!) });
  });
  await page.route(STATUS_PAGE_URL, (route) =>
    route.fulfill({ contentType: 'text/html', body: STATUS_PAGE }),
  );
}

/** The layout math of docs/renderer.md, written out again so the renderer is checked against it. */
function expectedLayout(board: BoardExport, screen: Screen) {
  const [width, height] = board.size;
  const bar = board.display_board_name ? Math.round(height * 0.06) : 0;
  const cellWidth = width / board.columns;
  const cellHeight = (height - bar) / board.rows;
  const scale = Math.min(screen.width / width, screen.height / height);
  const left = (screen.width - width * scale) / 2;
  const top = (screen.height - height * scale) / 2;
  const onScreen = (box: Rect): Rect => ({
    x: left + box.x * scale,
    y: top + box.y * scale,
    width: box.width * scale,
    height: box.height * scale,
  });
  const margin = board.widget_margins;
  const widgets = new Map(
    board.widgets.map((widget) => {
      const x0 = Math.round(widget.column * cellWidth);
      const x1 = Math.round((widget.column + widget.width) * cellWidth);
      const y0 = bar + Math.round(widget.row * cellHeight);
      const y1 = bar + Math.round((widget.row + widget.height) * cellHeight);
      const native = {
        x: x0 + margin,
        y: y0 + margin,
        width: x1 - x0 - 2 * margin,
        height: y1 - y0 - 2 * margin,
      };
      return [widget.flow.tag, onScreen(native)] as const;
    }),
  );
  return { scale, board: { x: left, y: top, width: width * scale, height: height * scale }, widgets };
}

function expectRect(actual: Rect, expected: Rect, what: string): void {
  for (const key of ['x', 'y', 'width', 'height'] as const) {
    expect(
      Math.abs(actual[key] - expected[key]),
      `${what}: ${key} is ${actual[key]}, expected ${expected[key]}`,
    ).toBeLessThan(0.1);
  }
}

/** Every widget's box, padding and content box, the letterbox and the board, read from the DOM. */
async function checkLayout(page: Page, board: BoardExport, screen: Screen): Promise<void> {
  const expected = expectedLayout(board, screen);
  const measured = await page.evaluate(() => {
    const rect = (element: Element | null): Rect => {
      if (!element) throw new Error('missing element');
      const { x, y, width, height } = element.getBoundingClientRect();
      return { x, y, width, height };
    };
    return {
      letterbox: rect(document.querySelector('.letterbox')),
      fit: rect(document.querySelector('.fit-screen')),
      board: rect(document.querySelector('.board')),
      widgets: [...document.querySelectorAll<HTMLElement>('section.widget')].map((section) => {
        const style = getComputedStyle(section);
        return {
          tag: section.dataset.flowTag ?? '',
          box: rect(section),
          padding: [style.paddingTop, style.paddingRight, style.paddingBottom, style.paddingLeft],
          body: rect(section.querySelector('.widget-body')),
        };
      }),
    };
  });

  // The letterbox covers the screen; the board is centred in it at its own aspect ratio.
  expectRect(measured.letterbox, { x: 0, y: 0, width: screen.width, height: screen.height }, 'letterbox');
  expectRect(measured.fit, expected.board, 'scaled board');
  expectRect(measured.board, expected.board, 'board');
  expect(measured.board.width / measured.board.height).toBeCloseTo(board.size[0] / board.size[1], 3);
  const fills = [measured.board.width, measured.board.height];
  expect(
    Math.abs(fills[0]! - screen.width) < 0.1 || Math.abs(fills[1]! - screen.height) < 0.1,
    'the board fills the screen along one axis',
  ).toBe(true);

  expect(measured.widgets.map((widget) => widget.tag).sort()).toEqual([...expected.widgets.keys()].sort());
  const padding = board.widget_padding;
  for (const widget of measured.widgets) {
    expectRect(widget.box, expected.widgets.get(widget.tag)!, `widget ${widget.tag}`);
    expect(widget.padding, `padding of ${widget.tag}`).toEqual(Array(4).fill(`${padding}px`));
    // The content starts one padding in from the left and spans the box less both paddings.
    const scaled = padding * expected.scale;
    expect(Math.abs(widget.body.x - widget.box.x - scaled), `content left of ${widget.tag}`).toBeLessThan(
      0.1,
    );
    expect(
      Math.abs(widget.body.width - (widget.box.width - 2 * scaled)),
      `content width of ${widget.tag}`,
    ).toBeLessThan(0.1);
    expect(widget.body.y - widget.box.y, `content top of ${widget.tag}`).toBeGreaterThanOrEqual(scaled - 0.1);
    expect(widget.body.y + widget.body.height, `content bottom of ${widget.tag}`).toBeLessThanOrEqual(
      widget.box.y + widget.box.height - scaled + 0.1,
    );
  }
}

function widgetOf(page: Page, tag: string) {
  return page.locator(`section.widget[data-flow-tag="${tag}"]`);
}

for (const theme of THEMES) {
  for (const screen of SCREENS) {
    test(`the reference board in the ${theme} theme at ${screen.name}`, async ({ page, renderer }) => {
      test.setTimeout(90_000);
      const state = referenceState(theme);
      // The moving ticker cannot be photographed twice alike: with reduced motion it stands still.
      await openBoard(page, renderer.url, state, screen, { reducedMotion: 'reduce' });
      await checkLayout(page, boardOf(state), screen);
      await expect(page).toHaveScreenshot(`reference-${theme}-${screen.name}.png`, {
        animations: 'disabled',
        maxDiffPixelRatio: 0.01,
        timeout: 30_000,
      });
    });
  }
}

for (const screen of [SCREENS[0]!, SCREENS[3]!]) {
  test(`board settings: name bar, colours, large fonts, margins and padding at ${screen.name}`, async ({
    page,
    renderer,
  }) => {
    const state = settingsState();
    const board = boardOf(state);
    await openBoard(page, renderer.url, state, screen, { reducedMotion: 'reduce' });
    await checkLayout(page, board, screen);

    const name = page.getByRole('heading', { name: 'Settings board' });
    await expect(name).toBeVisible();
    const nameBox = (await name.boundingBox())!;
    const { scale } = expectedLayout(board, screen);
    expect(nameBox.height).toBeCloseTo(Math.round(board.size[1] * 0.06) * scale, 1);

    const boardElement = page.locator('.board');
    await expect(boardElement).toHaveCSS('background-color', 'rgb(221, 230, 240)');
    // font_size large: 1.2 x the base of 20 px per 1080 native pixels of height.
    await expect(boardElement).toHaveCSS('font-size', `${Math.round(((board.size[1] * 20) / 1080) * 1.2)}px`);
    await expect(boardElement).toHaveCSS('font-family', /^"DejaVu Serif", "DejaVu Sans"/);
    const title = widgetOf(page, 'big-number').locator('.widget-title');
    await expect(title).toHaveCSS('color', 'rgb(130, 80, 223)');
    await expect(title).toHaveCSS('font-size', `${Math.round(((board.size[1] * 20) / 1080) * 0.9 * 1.2)}px`);
    await expect(widgetOf(page, 'big-number')).toHaveCSS('background-color', 'rgb(253, 253, 247)');
    await expect(widgetOf(page, 'bare-text')).toHaveCSS('background-color', 'rgba(0, 0, 0, 0)');
    await expect(widgetOf(page, 'weather-here')).toContainText('Amsterdam');
    await expect(widgetOf(page, 'foreign').locator('iframe').contentFrame().locator('#count')).toHaveText(
      '42',
    );
    await expect(page).toHaveScreenshot(`settings-${screen.name}.png`, {
      animations: 'disabled',
      maxDiffPixelRatio: 0.01,
    });
  });
}

test('widget states: errored, stale, no data, data that does not fit', async ({ page, renderer }) => {
  const state = referenceState('dark');
  await openBoard(page, renderer.url, state, SCREENS[0]!);

  await expect(widgetOf(page, TAGS.errored).locator('.widget-error-icon')).toBeVisible();
  await expect(page.locator('.widget-error-icon')).toHaveCount(1);

  await expect(widgetOf(page, TAGS.stale)).toHaveClass(/\bwidget-stale\b/);
  await expect(widgetOf(page, TAGS.stale).locator('.widget-stale-icon')).toBeVisible();
  // "health" expires a day after FROZEN_AT: not stale.
  await expect(page.locator('.widget-stale')).toHaveCount(1);

  await expect(widgetOf(page, TAGS.empty).getByText('No data yet')).toBeVisible();
  await expect(page.getByText('No data yet')).toHaveCount(1);

  await expect(widgetOf(page, TAGS.invalid).getByText('Data does not fit this widget')).toBeVisible();
  await expect(page.getByText('Data does not fit this widget')).toHaveCount(1);

  // Web content draws: the map's tiles and its attribution, the framed page.
  await expect(widgetOf(page, TAGS.map)).toContainText('© Test tiles');
  await expect(widgetOf(page, TAGS.map).locator('img.leaflet-tile').first()).toBeVisible();
  await expect(
    widgetOf(page, 'docs-page').locator('iframe').contentFrame().getByText('All systems operational'),
  ).toBeVisible();

  // Every other widget drew its variant: no face of any kind anywhere else.
  const faced = await page
    .locator('section.widget:has(.widget-face)')
    .evaluateAll((sections) => sections.map((section) => (section as HTMLElement).dataset.flowTag));
  expect(faced.sort()).toEqual([TAGS.empty, TAGS.invalid].sort());

  // Only the misfit data was reported, once.
  const logs = await page.evaluate(() => (window as unknown as PageBridgeWindow).bridgeLogs);
  expect(logs).toEqual([expect.stringMatching(new RegExp(`^warn: widget ${TAGS.invalid} \\(gauge\\)`))]);

  // Without reduced motion the ticker runs as a CSS animation.
  await expect(page.locator('.lists-ticker-strip')).toHaveCSS('animation-name', 'lists-ticker');
});

test('a metric update redraws its own widget and no other', async ({ page, renderer }) => {
  const state = referenceState('dark');
  await openBoard(page, renderer.url, state, SCREENS[0]!);
  const revenue = widgetOf(page, TAGS.revenue);
  await expect(revenue).toContainText('$1.2M');

  await page.evaluate(() => {
    const counts = new Map<string, number>();
    const observe = (key: string, target: Node, options: MutationObserverInit) => {
      counts.set(key, 0);
      new MutationObserver((records) => counts.set(key, (counts.get(key) ?? 0) + records.length)).observe(
        target,
        options,
      );
    };
    const everything = { subtree: true, childList: true, attributes: true, characterData: true };
    for (const section of document.querySelectorAll<HTMLElement>('section.widget')) {
      observe(section.dataset.flowTag ?? '', section, everything);
    }
    // The board and the frame around it must not be touched either.
    observe('(board)', document.querySelector('.board')!, { attributes: true, childList: true });
    observe('(fit-screen)', document.querySelector('.fit-screen')!, { attributes: true, childList: true });
    Object.assign(window, { mutationCounts: counts });
  });

  const values = [2_500_000, 3_100_000, 987_000, 4_200_000, 5_550_000];
  for (const [index, value] of values.entries()) {
    await page.evaluate(
      ({ tag, value, batch }) => {
        const flow = {
          flow_tag: tag,
          data: { title: 'Revenue', value, value_type: 'currency', abbreviate: true, rounding: 1, delta: 3 },
        };
        // Both kinds: the agent sends batches, an agent from before them one flow a message.
        (window as unknown as PageBridgeWindow).pushBridgeMessage(
          batch ? { kind: 'metricsBatch', flows: [flow] } : { kind: 'metrics', ...flow },
        );
      },
      { tag: TAGS.revenue, value, batch: index % 2 === 0 },
    );
  }
  // Widgets hear of new data once per animation frame (at most four times a second each), and
  // the page's clock is frozen here: let it run, for less than a second so clocks do not tick.
  await page.clock.runFor(400);
  await expect(revenue).toContainText('$5.6M');
  // Mutation records arrive as microtasks after each commit: a round trip lets them all land.
  const counts = await page.evaluate(() =>
    Object.fromEntries((window as unknown as { mutationCounts: Map<string, number> }).mutationCounts),
  );
  expect(counts[TAGS.revenue]).toBeGreaterThan(0);
  const others = Object.entries(counts).filter(([key, count]) => key !== TAGS.revenue && count > 0);
  expect(others, 'widgets other than the updated one that changed').toEqual([]);
  expect(Object.keys(counts)).toHaveLength(boardOf(state).widgets.length + 2);
});
