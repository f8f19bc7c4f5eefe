import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { Stack } from './stack';

// Schedules, power windows, groups and rotation end to end: the real service and a web player in
// their own processes, the page in Chromium, on the real clock (the screen's zone set to UTC, the
// windows placed around the current minute). The schedule is played by the device itself: its
// switch happens with the service killed.

let stack: Stack;

test.beforeEach(async () => {
  stack = await Stack.start(`sched-${Date.now().toString(36)}`);
});
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) {
    await testInfo.attach('device log', { body: stack.playerOutput });
  }
  await stack.stop();
});

const ALL_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
/** `HH:MM` in UTC, `minutes` from now. */
const utcTime = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString().slice(11, 16);

test("a group's playlist reaches its screen; a power window turns it black and back; a schedule switches it at the entry's minute with the service down", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const day = await stack.boardPlaylist('Day', 'day-value', 1, 30);
  const night = await stack.boardPlaylist('Night', 'night-value', 2, 30);
  await stack.startPlayer();
  await stack.waitOnline();
  const group = await stack.api<{ id: string }>('POST', '/groups', { name: 'Lobby', playlist_id: day });
  await stack.api('PATCH', `/devices/${stack.tag}`, { group_id: group.id, time_zone: 'UTC' });
  await page.goto(stack.playerUrl);
  await expect(page.locator('[data-board-name="Day"]')).toBeVisible({ timeout: 15_000 });

  // Off from a minute ago for ten: black at once, nothing playing; the window removed, back on.
  await stack.api('PATCH', `/groups/${group.id}`, {
    power: { off: [{ days: ALL_DAYS, from: utcTime(-1), to: utcTime(10) }] },
  });
  await expect(page.getByTestId('screen-off')).toBeVisible({ timeout: 5_000 });
  await expect(page.locator('[data-board-name]')).toHaveCount(0);
  await expect
    .poll(
      async () => (await stack.api<{ showing: string }[]>('GET', '/devices?include=status'))[0]?.showing,
      {
        // A heartbeat says so at once, or 5 s after the one before (src/agent/heartbeat.ts).
        timeout: 15_000,
      },
    )
    .toBe('off');
  await stack.api('PATCH', `/groups/${group.id}`, { power: null });
  await expect(page.locator('[data-board-name="Day"]')).toBeVisible({ timeout: 5_000 });

  // Rotated by its group: the stage turns.
  await stack.api('PATCH', `/groups/${group.id}`, { rotation: 90 });
  await expect(page.locator('[data-rotation="90"]')).toBeVisible({ timeout: 5_000 });

  // Night from the next minute, set on the screen itself; then the service is killed.
  const from = utcTime(1);
  await stack.api('PATCH', `/devices/${stack.tag}`, {
    schedule: {
      entries: [{ playlist_id: night, days: ALL_DAYS, from, to: utcTime(30) }],
      default_playlist_id: null,
    },
  });
  const at = await stack.api<{ playlist_id: string; reason: string }>(
    'GET',
    `/devices/${stack.tag}/schedule/at?time=${new Date(Date.now() + 90_000).toISOString()}`,
  );
  expect(at).toMatchObject({ playlist_id: night, reason: 'entry' });
  // Once the device holds the schedule (its saved state names the night's playlist), the
  // service is killed: the switch is the device's own.
  const saved = join(stack.dir, 'device', 'state', 'player-state.json');
  await expect.poll(async () => (await readFile(saved, 'utf8').catch(() => '')).includes(from)).toBe(true);
  await stack.killService();
  const minute = Date.parse(`${new Date().toISOString().slice(0, 11)}${from}:00Z`);
  await expect(page.locator('[data-board-name="Night"]')).toBeVisible({ timeout: 75_000 });
  // Not before the entry's minute (the clock of this machine is the device's).
  expect(Date.now()).toBeGreaterThanOrEqual(minute);
});
