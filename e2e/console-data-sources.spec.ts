import { MIME, startHttpFixtures } from '../service/data-sources/test-servers/http-fixtures';
import { checkPage, consoleTest as test, expect } from './console-kit';

// Data sources through the console, as an operator who writes no code: a JSON address added with
// its token, tested; then in the board editor a value widget takes its data from it, tried and
// saved with the board's one Save; a screen draws the source's value, and follows its change.
// Each page is checked by axe at a desktop's and a phone's width.

test('an operator adds a JSON source, tests it, and feeds a widget from it with the board’s Save', async ({
  admin: page,
  stack,
  context,
}, testInfo) => {
  test.setTimeout(180_000);
  const http = await startHttpFixtures();
  http.serve('/tickets.json', {
    type: MIME.json,
    body: JSON.stringify({ queue: { open: 42, oldest: '2h' } }),
  });
  try {
    const board = await stack.api<{ id: string }>('POST', '/boards/import', {
      name: 'Helpdesk',
      widgets: [
        {
          flow: { tag: 'open-tickets', data: { value: 0 } },
          variant: 'value',
          column: 0,
          row: 0,
          width: 16,
          height: 10,
        },
      ],
    });
    await stack.startPlayer();
    await stack.waitOnline();
    const playlist = await stack.api<{ id: string }>('POST', '/playlists', {
      name: 'Helpdesk',
      items: [{ type: 'board', board_id: board.id, duration: 60 }],
    });
    await stack.api('PATCH', `/devices/${stack.tag}`, { playlist_id: playlist.id });

    // The source: its address, its token (never shown again), a short interval, the LAN allowed.
    await page.getByRole('link', { name: 'Data sources', exact: true }).click();
    await page.getByRole('button', { name: 'New data source' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Helpdesk API');
    await dialog.getByRole('combobox', { name: 'Kind' }).click();
    await page.getByRole('option', { name: 'JSON over HTTP' }).click();
    await dialog.getByRole('textbox', { name: 'Address' }).fill(`${http.url}/tickets.json`);
    await dialog.getByRole('radio', { name: 'Bearer token' }).check();
    await dialog.getByLabel('Token', { exact: true }).fill('hd-secret-token');
    await dialog.getByLabel('Refresh every (seconds)').fill('5');
    await dialog.getByRole('switch', { name: /^May reach addresses on this network/ }).check();
    await checkPage(page, 'data-source-new');
    await dialog.getByRole('button', { name: 'Add the source' }).click();
    await expect(page.getByRole('heading', { name: 'Helpdesk API', level: 1 })).toBeVisible();

    // A test of a query shows what the mapping will read.
    await page.getByLabel('Pick part of the answer').fill('queue');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await expect(page.getByRole('region', { name: 'The result' })).toContainText('"open": 42');
    expect(http.requests.at(-1)?.headers.authorization).toBe('Bearer hd-secret-token');
    await checkPage(page, 'data-source-tested');

    // The widget takes its value from it, saved with the board.
    await page.goto(`${stack.serviceUrl}/console/boards/${board.id}`);
    await page.getByTestId('editor-widget-value').click();
    const binding = page.getByRole('region', { name: 'Data from a source' });
    // The widget's data form first (it loads with the flow's data, above the source's panel).
    await expect(page.getByRole('textbox', { name: 'Value', exact: true })).toHaveValue('0');
    await binding.getByRole('combobox', { name: 'Data source' }).click();
    const helpdesk = page.getByRole('option', { name: 'Helpdesk API' });
    await helpdesk.click();
    await binding.getByLabel('Pick part of the answer').fill('queue');
    await binding.getByRole('textbox', { name: 'Value', exact: true }).fill('open');
    await binding.getByRole('textbox', { name: 'Title', exact: true }).fill("'Open tickets'");
    await binding.getByRole('button', { name: 'Try it' }).click();
    await expect(binding.getByRole('region', { name: "The widget's data from the source" })).toContainText(
      '"value": 42',
    );
    await checkPage(page, 'data-source-binding');
    expect(await stack.api<unknown[]>('GET', '/data-bindings')).toEqual([]);
    await page.getByRole('button', { name: 'Save the board' }).click();
    await expect(page.getByTestId('editor-status')).toHaveText('Every change is saved');
    expect(await stack.api<{ flow_tag: string }[]>('GET', '/data-bindings')).toMatchObject([
      { flow_tag: 'open-tickets' },
    ]);

    // The screen draws it, and follows the source.
    const screen = await context.newPage();
    await screen.goto(stack.playerUrl);
    const value = screen.locator('[data-flow-tag="open-tickets"]');
    await expect(value).toContainText('42', { timeout: 20_000 });
    await expect(value).toContainText('Open tickets');
    http.serve('/tickets.json', { type: MIME.json, body: JSON.stringify({ queue: { open: 17 } }) });
    await expect(value).toContainText('17', { timeout: 20_000 });
    await screen.screenshot({ path: testInfo.outputPath('screen.png') });
    await screen.close();
    await page.bringToFront();

    // The source's page lists the flow it feeds and its runs.
    await page.getByRole('link', { name: 'Data sources', exact: true }).click();
    await expect(page.getByRole('row', { name: /Helpdesk API/ })).toContainText('1');
    await page.getByRole('link', { name: 'Helpdesk API' }).click();
    await expect(page.getByText('open-tickets').first()).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('source-page.png'), fullPage: true });
    await checkPage(page, 'data-source-page');
  } finally {
    await http.stop();
  }
});
