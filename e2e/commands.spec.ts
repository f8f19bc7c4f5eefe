import { once } from 'node:events';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { Stack } from './stack';

// Remote commands end to end: the real service and a web player in their own processes, the
// page in Chromium. Each command is sent through the API and followed to its end there.

interface Command {
  id: string;
  type: string;
  status: string;
  reason: string | null;
}

let stack: Stack;

test.beforeEach(async () => {
  stack = await Stack.start(`cmd-${Date.now().toString(36)}`);
});
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) {
    await testInfo.attach('device log', { body: stack.playerOutput });
    console.error(stack.playerOutput);
  }
  await stack.stop();
});

const send = (type: string) => stack.api<Command>('POST', `/devices/${stack.tag}/commands`, { type });
const status = async (id: string) =>
  (await stack.api<Command>('GET', `/devices/${stack.tag}/commands/${id}`)).status;

/** Follows a command through the API until it is finished; its last state. */
async function finished(command: Command, timeout = 20_000): Promise<Command> {
  await expect.poll(() => status(command.id), { timeout }).toMatch(/^(done|failed)$/);
  return stack.api<Command>('GET', `/devices/${stack.tag}/commands/${command.id}`);
}

/** Marks the page; the mark is gone once the page has reloaded. */
const mark = (page: Page) => page.evaluate(() => Object.assign(window, { wallboardMark: true }));
const marked = (page: Page) => page.evaluate(() => 'wallboardMark' in window);

/** Once the device has registered, gives it a board to show and opens its page. */
async function showBoard(page: Page): Promise<void> {
  await expect
    .poll(
      async () =>
        (await stack.api<{ online: boolean }>('GET', `/devices/${stack.tag}`).catch(() => null))?.online,
    )
    .toBe(true);
  const playlistId = await stack.boardPlaylist('Commands', 'cmd-cpu', 42, 2);
  await stack.api('PATCH', `/devices/${stack.tag}`, { playlist_id: playlistId });
  await page.goto(stack.playerUrl);
  await expect(page.locator('[data-board-name="Commands"]')).toBeVisible();
}

test('identify, screenshot, reload and restart, each followed to done', async ({ page }) => {
  test.setTimeout(120_000);
  await stack.startPlayer();
  await showBoard(page);

  // Identify: the name and tag over the board, for 10 s.
  const identify = await send('identify');
  expect(identify.status).toBe('queued');
  await expect(page.getByTestId('identify-name')).toHaveText(`Screen ${stack.tag}`);
  await expect(page.getByTestId('identify-tag')).toHaveText(stack.tag);
  expect(await finished(identify)).toMatchObject({ status: 'done', reason: null });
  await expect(page.getByTestId('identify')).toBeHidden({ timeout: 12_000 });

  // Screenshot: a PNG of exactly the viewport, stored by the service with its time.
  const before = Date.now();
  const shot = await finished(await send('screenshot'));
  expect(shot).toMatchObject({ status: 'done' });
  const answer = await fetch(`${stack.serviceUrl}/devices/${stack.tag}/screenshot`, {
    headers: { authorization: `Bearer ${stack.admin}` },
  });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe('image/png');
  expect(Date.parse(answer.headers.get('x-screenshot-at') ?? '')).toBeGreaterThanOrEqual(before - 1000);
  const png = Buffer.from(await answer.arrayBuffer());
  const viewport = page.viewportSize();
  const ratio = await page.evaluate(() => window.devicePixelRatio);
  expect({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) }).toEqual({
    width: (viewport?.width ?? 0) * ratio,
    height: (viewport?.height ?? 0) * ratio,
  });
  // What the screen showed: the board's value, not a blank picture (most of the frame is not one colour).
  expect(png.length).toBeGreaterThan(10_000);

  // Reload: the page reloads and shows the board again.
  await mark(page);
  const reload = await finished(await send('reload'));
  expect(reload.status).toBe('done');
  await expect.poll(() => marked(page).catch(() => true)).toBe(false);
  await expect(page.locator('[data-board-name="Commands"]')).toBeVisible();

  // Restart (the web player's: a new session, the whole state fetched again, the page reloaded).
  await mark(page);
  const restart = await finished(await send('restart'));
  expect(restart).toMatchObject({ status: 'done', reason: null });
  await expect.poll(() => marked(page).catch(() => true)).toBe(false);
  await expect(page.locator('[data-board-name="Commands"]')).toBeVisible();
  expect((await stack.api<{ online: boolean }>('GET', `/devices/${stack.tag}`)).online).toBe(true);
  expect(stack.playerOutput).toContain(`restarted for command ${restart.id}`);
});

test('a command to a device that is away waits for it, and runs when it is back', async ({ page }) => {
  test.setTimeout(90_000);
  await stack.startPlayer();
  await showBoard(page);
  const player = stack.player;
  if (!player) throw new Error('no player');
  const exited = once(player, 'exit');
  player.kill('SIGKILL');
  await exited;

  const identify = await send('identify');
  // Nobody to take it: it waits.
  expect(await status(identify.id)).toBe('queued');

  stack.playerOutput = '';
  await stack.startPlayer();
  await page.goto(stack.playerUrl);
  expect(await finished(identify, 30_000)).toMatchObject({ status: 'done' });
  const listed = await stack.api<Command[]>('GET', `/devices/${stack.tag}/commands?status=queued`);
  expect(listed).toEqual([]);
});

test('proof of play reaches the service, as JSON and as CSV', async ({ page }) => {
  test.setTimeout(90_000);
  await stack.startPlayer();
  await showBoard(page);
  // Turns of 2 s each: a few of them, uploaded within the agent's 10 s batching.
  await expect
    .poll(
      async () =>
        (await stack.api<{ board_id: string; seconds: number }[]>('GET', `/devices/${stack.tag}/plays`))
          .length,
      // 15 s on a quiet machine; twice that and more on a loaded one (a CI run beside others).
      { timeout: 60_000 },
    )
    .toBeGreaterThanOrEqual(2);
  const plays = await stack.api<{ type: string; seconds: number }[]>('GET', `/devices/${stack.tag}/plays`);
  expect(plays.every((play) => play.type === 'board' && play.seconds > 1 && play.seconds < 4)).toBe(true);
  const csv = await fetch(`${stack.serviceUrl}/devices/${stack.tag}/plays`, {
    headers: { authorization: `Bearer ${stack.admin}`, accept: 'text/csv' },
  });
  expect(csv.headers.get('content-type')).toContain('text/csv');
  expect((await csv.text()).split('\r\n')[0]).toBe(
    'id,device_tag,type,board_id,url,channel_id,started_at,ended_at,seconds',
  );
});
