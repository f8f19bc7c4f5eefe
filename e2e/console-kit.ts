import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { Stack } from './stack';

/** Where the reference screenshots of the console go (`WALLBOARD_REFERENCES=1 npx playwright test console`). */
const REFERENCES = fileURLToPath(new URL('console-references/', import.meta.url));
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

export const ADMIN = { login: 'ada', password: 'e2e password of ada' };
export const VIEWER = { login: 'victor', password: 'e2e password of victor' };

interface ConsoleFixtures {
  /** The service (its own process, from dist/) with an admin and a viewer who sign in. */
  stack: Stack;
  /** A page of the console signed in as the admin, at 1280x800. */
  admin: Page;
}

export const consoleTest = test.extend<ConsoleFixtures>({
  stack: async ({}, use) => {
    const stack = await Stack.start(`console-${Math.random().toString(36).slice(2, 8)}`);
    await stack.api('POST', '/users', { ...ADMIN, role: 'admin' });
    await stack.api('POST', '/users', { ...VIEWER, role: 'viewer' });
    await use(stack);
    await stack.stop();
  },
  admin: async ({ page, stack }, use) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await signIn(page, stack, ADMIN);
    await use(page);
  },
});

export async function signIn(
  page: Page,
  stack: Stack,
  who: { login: string; password: string },
): Promise<void> {
  await page.goto(`${stack.serviceUrl}/console/`);
  await page.getByLabel('Login').fill(who.login);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Its login and role, then its account's name where it is not the default one.
  await expect(
    page.getByRole('button', { name: new RegExp(`^${who.login} \\w+( .+)?, signed in`) }),
  ).toBeVisible();
  // Kept live by the service's notices from here on.
  await expect(page.getByRole('status', { name: /^Live/ })).toBeVisible();
}

/** No serious or critical accessibility violation on the page as it is now (axe-core). */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

/**
 * The page at the desktop's and at a phone's size, each checked by axe; with
 * WALLBOARD_REFERENCES=1 the screenshots are written to e2e/console-references/ to be looked at
 * and committed. The page is left at the desktop's size.
 */
export async function checkPage(page: Page, name: string): Promise<void> {
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    // Checked once what follows the size has been drawn (a board preview scales itself to its
    // new width in the frames after a resize, and until then it lies over what comes below it),
    // and once the transitions under way have ended (a dialog fading in is measured at its full
    // colours): endless animations, a ticker or a spinner, run on; a second at most.
    await page.evaluate(async () => {
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const ending = document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined));
      await Promise.race([Promise.all(ending), new Promise((resolve) => setTimeout(resolve, 1000))]);
    });
    await expectAccessible(page);
    if (process.env.WALLBOARD_REFERENCES) {
      await mkdir(REFERENCES, { recursive: true });
      await page.screenshot({ path: `${REFERENCES}${name}-${size}.png` });
    }
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  // Resized beside another page (a player), Chromium draws it as an occluded window, a frame a
  // second, until it is in front again.
  await page.bringToFront();
}

export { expect };
