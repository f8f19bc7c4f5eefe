import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { checkPage, consoleTest as test, expect } from './console-kit';

// Play reports in the console: plays uploaded as screens upload them (POST /devices/:tag/plays),
// then the Reports page's totals with names, a filter by screen, and the totals' CSV downloaded
// as an operator's spreadsheet would open it (a byte order mark, no formula run).

// The browser's zone is the report's: UTC, so that the days seeded below are the page's days.
test.use({ timezoneId: 'UTC' });

const HOSTILE = '=HYPERLINK("https://evil.example/","Click")';
const DAY_MS = 86_400_000;

function boardPlay(board: string, start: number, seconds: number) {
  return {
    id: randomUUID(),
    type: 'board',
    board_id: board,
    url: null,
    channel_id: null,
    started_at: new Date(start).toISOString(),
    ended_at: new Date(start + seconds * 1000).toISOString(),
  };
}

test('the Reports page totals the plays by day with names, filters by screen, downloads a safe CSV', async ({
  admin: page,
  stack,
}) => {
  test.setTimeout(90_000);
  const menu = await stack.api<{ id: string }>('POST', '/boards', { name: 'Lunch menu' });
  const hostile = await stack.api<{ id: string }>('POST', '/boards', { name: HOSTILE });
  await stack.api('POST', '/devices', { tag: 'lobby', name: 'Lobby TV' });
  await stack.api('POST', '/devices', { tag: 'kitchen', name: 'Kitchen' });
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const yesterday = today - DAY_MS;
  await stack.api('POST', '/devices/lobby/plays', [
    boardPlay(menu.id, yesterday + 3_600_000, 10),
    boardPlay(menu.id, yesterday + 7_200_000, 10),
    boardPlay(hostile.id, yesterday + 7_210_000, 30),
  ]);
  await stack.api('POST', '/devices/kitchen/plays', [
    boardPlay(menu.id, yesterday + 3_600_000, 15),
    boardPlay(menu.id, today + 60_000, 20),
  ]);

  await page.getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  // The last 7 days by default: yesterday's three items of two boards, today's one.
  const rows = page.getByTestId('total');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText(HOSTILE);
  await expect(rows.nth(0)).toContainText('30 s');
  await expect(rows.nth(1)).toContainText(/Lunch menu\s*Board\s*3\s*35 s\s*2/);
  await expect(rows.nth(2)).toContainText(/Lunch menu\s*Board\s*1\s*20 s\s*1/);
  await expect(page.getByTestId('report-summary')).toHaveText('5 plays, 1 min 25 s on screen');
  await expect(page.getByRole('img', { name: /^Plays per day/ }).locator('canvas')).toBeVisible();
  // The pointer off the link it clicked, so that axe sees the page as it rests (not a hover).
  await page.mouse.move(640, 790);
  await checkPage(page, 'reports');

  // One screen: the kitchen's plays alone.
  const days = page.getByRole('radiogroup', { name: 'Days' });
  await page.getByRole('combobox', { name: 'Screen' }).click();
  await page.getByRole('option', { name: 'Kitchen' }).click();
  await expect(rows).toHaveCount(2);
  await expect(page.getByTestId('report-summary')).toHaveText('2 plays, 35 s on screen');
  await days.getByText('Today', { exact: true }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('20 s');

  // The totals of the whole week as a spreadsheet opens them.
  await days.getByText('Last 7 days', { exact: true }).click();
  await expect(rows).toHaveCount(2);
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download totals (CSV)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^play-totals-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = await readFile(await file.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.toString('utf8').slice(1).split('\r\n');
  expect(lines[0]).toBe('day,type,item_id,url,name,plays,seconds,screens');
  expect(lines).toContain(
    `${new Date(yesterday).toISOString().slice(0, 10)},board,${menu.id},,Lunch menu,1,15,1`,
  );

  // Every play of every screen, with the hostile name made text.
  await page.getByRole('combobox', { name: 'Screen' }).click();
  await page.getByRole('option', { name: 'Lobby TV' }).click();
  await expect(rows).toHaveCount(2);
  const plays = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download every play (CSV)' }).click();
  const list = (await readFile(await (await plays).path(), 'utf8')).split('\r\n');
  expect(list).toHaveLength(5); // the header, three plays, the final line break
  expect(list.find((line) => line.includes(hostile.id))).toContain(
    `,"'=HYPERLINK(""https://evil.example/"",""Click"")",`,
  );
});
