// A landscape panel mounted upright (rotation 90): the renderer turns the picture and lays a
// portrait board out on the turned 1080 x 1920 stage, so it fills the 1920 x 1080 screen. The
// reference screenshot is the screen as the panel shows it, its top to the right.
import { boardExportSchema } from '../src/shared/board-export';
import { playerStateSchema, type PlayerState } from '../src/shared/bridge';
import { expect, test } from './fixtures';
import { installPageBridge } from './page-bridge';
import { FROZEN_AT, FROZEN_AT_ISO, referenceState } from './reference-board';

const PORTRAIT = boardExportSchema.parse({
  name: 'Lobby (portrait)',
  size: [1080, 1920],
  aspect_ratio: '9:16',
  columns: 6,
  rows: 12,
  display_board_name: true,
  theme: 'dark',
  channel_ids: [],
  widgets: [
    ['visitors', 'value', 0, 0, 3, 3, { title: 'Visitors', value: 5321, label: 'today', delta: 12.5 }],
    ['cpu', 'gauge', 3, 0, 3, 3, { title: 'CPU', value: 72, min: 0, max: 100, value_type: 'percent' }],
    [
      'regions',
      'barchart',
      0,
      3,
      6,
      4,
      {
        title: 'Regions',
        bars: [
          { label: 'North', value: 1200 },
          { label: 'South', value: 4500 },
          { label: 'East', value: 3000 },
          { label: 'West', value: 2100 },
        ],
      },
    ],
    ['utc', 'clock', 0, 7, 3, 2, { title: 'UTC', timezone: 'UTC' }],
    ['launch', 'countdown', 3, 7, 3, 2, { title: 'Launch', time: FROZEN_AT + 7530, message: 'Launched!' }],
    [
      'notice',
      'text',
      0,
      9,
      6,
      3,
      {
        title: 'Welcome',
        text: 'This board is 1080 x 1920: a portrait panel shows it whole.',
        alignment: 'center',
      },
    ],
  ].map(([tag, variant, column, row, width, height, data], index) => ({
    variant,
    column,
    row,
    width,
    height,
    in_board_index: index,
    flow: { tag, data, errored: false },
  })),
});

const STATE: PlayerState = playerStateSchema.parse({
  ...referenceState('dark'),
  playlist: {
    id: 'portrait',
    name: 'Portrait',
    items: [{ type: 'board', board_id: 'portrait', channel_id: null, duration: 30 }],
    updated_at: FROZEN_AT_ISO,
  },
  boards: { portrait: PORTRAIT },
  media: {},
  display: { rotation: 90, off: false },
});

test.use({ locale: 'en-GB', timezoneId: 'UTC', viewport: { width: 1920, height: 1080 } });

test('a portrait board on a 1920 x 1080 screen turned 90 degrees fills it', async ({ page, renderer }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.clock.install({ time: (FROZEN_AT - 1) * 1000 });
  await page.clock.pauseAt(FROZEN_AT * 1000);
  await page.addInitScript(installPageBridge, STATE);
  await page.goto(renderer.url);
  await expect(page.locator('section.widget')).toHaveCount(PORTRAIT.widgets.length);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));

  // Scale 1 on the 1080 x 1920 stage: the board covers the whole screen, no bars.
  await expect(page.locator('.fit-screen')).toHaveAttribute('data-scale', '1.0000');
  const boardBox = await page.locator('.board').boundingBox();
  expect(boardBox).toEqual({ x: 0, y: 0, width: 1920, height: 1080 });
  // The name bar (the board's top) is along the screen's right edge.
  const bar = (await page.getByRole('heading', { name: 'Lobby (portrait)' }).boundingBox())!;
  expect(bar.x).toBeGreaterThanOrEqual(1920 - Math.round(1920 * 0.06));
  expect(bar.x + bar.width).toBeCloseTo(1920, 0);

  await expect(page).toHaveScreenshot('portrait-board-rotated-90-1920x1080.png', {
    animations: 'disabled',
    maxDiffPixelRatio: 0.01,
  });
});
