import type { Page } from '@playwright/test';
import { checkPage, consoleTest as test, expect, signIn, VIEWER } from './console-kit';

/** Replaces the editor's text by typing, as an operator does (CodeMirror closes brackets itself). */
async function typeCode(page: Page, lines: string[]): Promise<void> {
  const editor = page.getByRole('textbox', { name: 'Code' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  for (const [index, line] of lines.entries()) {
    if (index > 0) await page.keyboard.press('Enter');
    await page.keyboard.type(line);
  }
}

test('an admin writes a script, saves it, runs it and reads its log', async ({ admin: page, stack }) => {
  await stack.api('POST', '/flows', { tag: 'e2e-value', variant: 'value' });
  await page.getByRole('link', { name: 'Scripts' }).click();
  await expect(page.getByRole('heading', { name: 'Scripts', level: 1 })).toBeVisible();
  // The account's share of the service's scripts, in words an operator reads.
  const limits = page.getByTestId('script-limits');
  await expect(limits).toContainText('Script time this hour: 0 s of 60 min');
  await expect(limits).toContainText('Enabled scripts: 0 of 200');
  // Off the link just clicked, whose hover colours are not the page's.
  await limits.hover();
  await checkPage(page, 'scripts');
  await page.getByRole('button', { name: 'New script' }).click();
  await expect(page.getByRole('heading', { name: 'New script' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'wallboard/http' })).toBeVisible();

  await page.getByRole('textbox', { name: 'Name' }).fill('Answer');
  await typeCode(page, ["console.log('hello from the console');", 'return { value: 42 };']);
  await page.getByRole('textbox', { name: 'Interval' }).fill('1h');
  await page.getByRole('combobox', { name: 'Flow it feeds' }).click();
  await page.getByRole('option', { name: 'e2e-value (value)' }).click();
  await page.getByRole('button', { name: 'Create the script' }).click();
  await expect(page.getByRole('heading', { name: 'Answer', level: 1 })).toBeVisible();

  // Created enabled, it ran at once; run it again by hand and read the log.
  await page.getByRole('button', { name: 'Run now' }).click();
  const newest = page.getByTestId('script-run').first();
  await expect(newest).toContainText('run by hand');
  await expect(newest).toContainText('ok');
  await expect(newest.getByTestId('run-logs')).toContainText('hello from the console');
  await expect
    .poll(async () => (await stack.api<{ value?: number }>('GET', '/flows/e2e-value/metrics')).value)
    .toBe(42);
  await checkPage(page, 'script');

  // A syntax error is refused on save, with the service's message under the editor.
  await typeCode(page, ['const a = 1;', 'const a = 2;', 'return { value: a };']);
  await page.getByRole('button', { name: 'Save' }).click();
  const refused = page.getByRole('alert', { name: 'The script was not saved' });
  await expect(refused).toContainText(/SyntaxError.*line 2/);

  // A script that throws: the run shows its error.
  await typeCode(page, ["throw new Error('source down');"]);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(refused).toHaveCount(0);
  await page.getByRole('button', { name: 'Run now' }).click();
  await expect(page.getByTestId('script-run').first().getByTestId('run-error')).toContainText('source down');

  // Disabled: no longer scheduled.
  await page.getByRole('switch', { name: /Enabled/ }).uncheck();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect
    .poll(async () => (await stack.api<{ enabled: boolean }[]>('GET', '/scripts'))[0]?.enabled)
    .toBe(false);

  // The list: its state, interval, last run and flow.
  await page.getByRole('link', { name: 'All scripts' }).click();
  const row = page.getByRole('row', { name: /Answer/ });
  await expect(row).toContainText('disabled');
  await expect(row).toContainText('every 1h');
  await expect(row).toContainText('error');
  await expect(row).toContainText('e2e-value');
  await checkPage(page, 'scripts');
});

test('a viewer is shown neither the scripts nor their code, which may hold keys', async ({ page, stack }) => {
  await stack.api('POST', '/scripts', { name: 'Weather', code: 'return { value: 1 };', interval: '5m' });
  await signIn(page, stack, VIEWER);
  await expect(page.getByRole('link', { name: 'Users' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Scripts' })).toHaveCount(0);
  await page.goto(`${stack.serviceUrl}/console/scripts`);
  await expect(page.getByText('a viewer may not GET /scripts').first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Weather' })).toHaveCount(0);
});
