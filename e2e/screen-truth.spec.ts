import type { Page } from '@playwright/test';
import type { Playing } from '../src/shared/playing';
import { consoleTest as test, expect } from './console-kit';
import type { Stack } from './stack';

// One truth about what plays: a real screen (the web player in Chromium) under a group's schedule,
// then in a power window, woken, and under an emergency override; in each case the Screens list
// and the screen's page say what it should show, and agree with what it reports (its heartbeat).
// The real clock, the screen's zone set to UTC and the windows placed around the current minute.

const ALL_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
/** `HH:MM` in UTC, `minutes` from now. */
const utcTime = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString().slice(11, 16);

/** Until the service says the screen shows what it should, by `summary`. */
async function untilAgreed(stack: Stack, summary: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const playing = await stack.api<Playing>('GET', `/devices/${stack.tag}/playing`);
        return `${playing.expected.summary}: ${String(playing.agrees)}`;
      },
      // A change of what kind of thing is on screen is beaten at once, or 5 s after the last beat.
      { timeout: 20_000, intervals: [250] },
    )
    .toBe(`${summary}: true`);
}

/** The console's list and the screen's page say `summary`, with no disagreement. */
async function consoleSays(page: Page, stack: Stack, summary: string, shot: string): Promise<void> {
  await page.goto(`${stack.serviceUrl}/console/screens`);
  const row = page.getByTestId('screen-row').filter({ hasText: stack.tag });
  await expect(row).toContainText(summary);
  await expect(row.getByTestId('disagrees')).toHaveCount(0);
  await page.goto(`${stack.serviceUrl}/console/screens/${stack.tag}`);
  const now = page.getByRole('region', { name: 'Now' });
  await expect(now).toContainText(`Should show: ${summary}`);
  await expect(now.getByRole('alert')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath(`${shot}.png`), fullPage: true });
}

test('the Screens list and the screen page agree with the screen in the scheduled, off, wake and override cases', async ({
  admin: page,
  stack,
  browser,
}) => {
  test.setTimeout(240_000);
  const day = await stack.boardPlaylist('Day', 'day-value', 1, 30);
  const lunch = await stack.boardPlaylist('Lunch', 'lunch-value', 2, 30);
  await stack.startPlayer();
  await stack.waitOnline();
  const group = await stack.api<{ id: string }>('POST', '/groups', {
    name: 'Lobby',
    playlist_id: day,
    time_zone: 'UTC',
    schedule: {
      entries: [
        {
          days: ALL_DAYS,
          from: utcTime(-1),
          to: utcTime(20),
          playlist_id: lunch,
          start_date: null,
          end_date: null,
          priority: 0,
        },
      ],
      default_playlist_id: null,
    },
  });
  await stack.api('PATCH', `/devices/${stack.tag}`, { group_id: group.id });
  // A window of its own: a page behind the console's in one context is hidden to itself, and
  // says so (`hidden`), which tells nothing of what it plays.
  const screen = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
  await screen.goto(stack.playerUrl);

  // Scheduled: the group's schedule, not its playlist.
  await expect(screen.locator('[data-board-name="Lunch"]')).toBeVisible({ timeout: 15_000 });
  await untilAgreed(stack, 'Lunch (schedule)');
  await consoleSays(page, stack, 'Lunch (schedule)', 'scheduled');

  // Off: a power window from a minute ago; the screen is black and says so.
  await stack.api('PATCH', `/groups/${group.id}`, {
    power: { off: [{ days: ALL_DAYS, from: utcTime(-1), to: utcTime(15) }] },
  });
  await expect(screen.getByTestId('screen-off')).toBeVisible({ timeout: 5_000 });
  await untilAgreed(stack, 'off (power window)');
  await consoleSays(page, stack, 'off (power window)', 'off');

  // Woken by a command: on until the window ends.
  await stack.api('POST', `/devices/${stack.tag}/commands`, { type: 'wake' });
  await expect(screen.locator('[data-board-name="Lunch"]')).toBeVisible({ timeout: 10_000 });
  await untilAgreed(stack, 'Lunch (woken in its power window)');
  await consoleSays(page, stack, 'Lunch (woken in its power window)', 'woken');

  // An emergency override, above all of it.
  await stack.api('POST', '/overrides', {
    title: 'Fire alarm',
    message: 'Leave the building by the nearest exit.',
    target: { group_id: group.id },
  });
  await expect(screen.getByText('Leave the building by the nearest exit.')).toBeVisible({ timeout: 5_000 });
  await untilAgreed(stack, 'the emergency message "Fire alarm"');
  await consoleSays(page, stack, 'the emergency message "Fire alarm"', 'override');
});
