import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { checkPage, consoleTest as test, expect } from './console-kit';
import type { Stack } from './stack';

// A notification sent from the console to a group reaches the web player of a screen in that group
// and not the one of a screen outside it, though both play the same board: where it goes is the
// target's doing, not the channels'.

const WEB_PLAYER = fileURLToPath(new URL('../dist/web-player/main.mjs', import.meta.url));

/** A second screen beside the stack's own: a web player process with a token of its own. */
async function startScreen(stack: Stack, tag: string): Promise<{ url: string; process: ChildProcess }> {
  const { token } = await stack.api<{ token: string }>('POST', '/account/tokens', {
    scope: 'affiliated',
    name: `screen ${tag}`,
  });
  const args = ['--server', stack.serviceUrl, '--token', token, '--tag', tag, '--port', '0'];
  const child = spawn(
    process.execPath,
    [WEB_PLAYER, ...args, '--data-dir', join(stack.dir, `device-${tag}`)],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = / at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${tag} exited with ${code}: ${output}`)));
  });
  return { url, process: child };
}

/** A screen's page, in a browser context of its own as each screen is its own browser; loopback only. */
async function screenPage(browser: Browser, contexts: BrowserContext[]): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  await context.route(
    (url) => !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) && url.protocol !== 'data:',
    (route) => route.abort('blockedbyclient'),
  );
  contexts.push(context);
  return context.newPage();
}

test('an admin sends a notification to a group: a screen of the group shows it, one outside does not', async ({
  admin: page,
  stack,
  browser,
}) => {
  test.setTimeout(120_000);
  const contexts: BrowserContext[] = [];
  let outside: ChildProcess | null = null;
  try {
    // Two screens playing the same board; only the stack's own is in the group Lobby.
    await stack.startPlayer();
    const hall = await startScreen(stack, 'hall');
    outside = hall.process;
    const playlist = await stack.boardPlaylist('Ops', 'ops-cpu', 7, 60);
    const lobby = await stack.api<{ id: string }>('POST', '/groups', { name: 'Lobby' });
    for (const [tag, group] of [
      [stack.tag, lobby.id],
      ['hall', null],
    ] as const) {
      await expect
        .poll(
          async () =>
            (await stack.api<{ online: boolean }>('GET', `/devices/${tag}`).catch(() => null))?.online,
          {
            timeout: 15_000,
          },
        )
        .toBe(true);
      await stack.api('PATCH', `/devices/${tag}`, { group_id: group, playlist_id: playlist });
    }
    const inGroup = await screenPage(browser, contexts);
    const outOfGroup = await screenPage(browser, contexts);
    await inGroup.goto(stack.playerUrl);
    await outOfGroup.goto(hall.url);
    for (const shown of [inGroup, outOfGroup]) {
      await expect(shown.locator('[data-board-name="Ops"]')).toBeVisible({ timeout: 15_000 });
    }

    // The console: where it goes in plain words, and the preview says which screens show it.
    await page.bringToFront();
    await page.getByRole('link', { name: 'Notifications' }).click();
    await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
    await page.getByRole('combobox', { name: 'Send to' }).click();
    await page.getByRole('option', { name: 'The screens of a group' }).click();
    await page.getByRole('combobox', { name: 'Group' }).click();
    await page.getByRole('option', { name: 'Lobby' }).click();
    await page.getByLabel('Title').fill('Lobby closes at six');
    await page.getByLabel('Message').fill('Please use the side door after six tonight.');
    await page.getByLabel('Search the icons').fill('door');
    await page.getByRole('button', { name: 'door-open', exact: true }).click();
    const preview = page.getByTestId('banner-preview');
    await expect(preview.locator('.player-notification-title')).toHaveText('Lobby closes at six');
    await expect(preview.locator('svg[data-icon="door-open"]')).toBeVisible();
    await expect(page.getByTestId('banner-preview-reach')).toContainText('the 1 screen of Lobby');
    await checkPage(page, 'notifications-group');

    await page.getByRole('button', { name: 'Send' }).click();
    const banner = inGroup.locator('.player-notification');
    await expect(banner).toContainText('Lobby closes at six', { timeout: 3_000 });
    await expect(banner.locator('svg[data-icon="door-open"]')).toBeVisible();
    // To set beside the console's preview (e2e/console-references/notifications-group-*.png).
    await inGroup.screenshot({ path: 'test-results/notification-targets/screen-1280x720.png' });
    await expect(
      page.getByRole('table', { name: 'Notifications sent' }).getByRole('row').nth(1),
    ).toContainText('Group Lobby');

    // Then one to every screen. Notifications show one at a time: had the hall's screen got the
    // group's, this one would wait behind it ("+1 more"); it is on screen at once, alone.
    await stack.api('POST', '/notifications', {
      title: 'Fire drill at noon',
      message: 'm',
      target: { all: true },
    });
    await expect(outOfGroup.locator('.player-notification')).toContainText('Fire drill at noon');
    await expect(outOfGroup.getByTestId('notification-more')).toHaveCount(0);
    await expect(outOfGroup.locator('.player-notification')).not.toContainText('Lobby closes at six');
    await expect(inGroup.getByTestId('notification-more')).toHaveText('+1 more');
  } finally {
    await Promise.all(contexts.map((context) => context.close()));
    if (outside && outside.exitCode === null && outside.signalCode === null) {
      const exited = once(outside, 'exit');
      outside.kill('SIGTERM');
      await exited;
    }
  }
});
