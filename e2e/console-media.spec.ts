import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { checkPage, consoleTest as test, expect, signIn, VIEWER } from './console-kit';

// The Media page, only through the console: an upload by the file input with its progress and
// thumbnail, a file whose content is not media refused with the service's message, its file
// replaced after a confirmation, deleting, and a viewer who sees the library and changes nothing.

const PICTURE = fileURLToPath(new URL('./assets/picture.png', import.meta.url));

/** Uploads files by the page's file input (what "Choose files…" and a drop feed). */
async function upload(page: Page, files: Parameters<Locator['setInputFiles']>[0]): Promise<void> {
  await page.getByLabel('Files to upload', { exact: true }).setInputFiles(files);
}

/** The library's card of a medium. */
const cardOf = (page: Page, name: string) => page.getByRole('article', { name, exact: true });

test('an admin uploads an image, sees its thumbnail, is refused a fake one, and deletes it', async ({
  admin: page,
}) => {
  await page.getByRole('link', { name: 'Media' }).click();
  await expect(page.getByRole('heading', { name: 'Media', level: 1 })).toBeVisible();
  // Off the navigation: a hovered active link is a shade darker than axe is told to check.
  await page.mouse.move(640, 400);
  await expect(page.getByText('Nothing uploaded yet.')).toBeVisible();

  await upload(page, PICTURE);
  const uploads = page.getByTestId('upload');
  await expect(uploads.filter({ hasText: 'picture.png' })).toContainText('uploaded');
  const card = cardOf(page, 'picture.png');
  await expect(card).toContainText('image/png');
  await expect(card).toContainText('Not used');
  const thumbnail = card.getByRole('img', { name: 'picture.png' });
  await expect(thumbnail).toHaveAttribute('loading', 'lazy');
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  // A text file named .png: the service looks at its content and says why; nothing is kept.
  await upload(page, {
    name: 'notes.png',
    mimeType: 'image/png',
    buffer: Buffer.from('not a picture at all\n'),
  });
  const refused = uploads.filter({ hasText: 'notes.png' });
  await expect(refused.getByRole('alert')).toContainText('is not an image, video or sound the screens play');
  await expect(cardOf(page, 'notes.png')).toHaveCount(0);
  await checkPage(page, 'media');

  await page.getByRole('button', { name: 'Clear finished uploads' }).click();
  await expect(uploads).toHaveCount(0);
  // Replacing its file acts at once on every playlist and board using it: it asks first.
  const replaced: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PUT' && request.url().endsWith('/content')) replaced.push(request.url());
  });
  const newer = Buffer.concat([await readFile(PICTURE), Buffer.alloc(16)]);
  const chooser = async () => {
    const chosen = page.waitForEvent('filechooser');
    await card.getByRole('button', { name: 'Replace file of picture.png' }).click();
    await (await chosen).setFiles({ name: 'newer.png', mimeType: 'image/png', buffer: newer });
  };
  await chooser();
  await expect(page.getByRole('dialog', { name: 'Replace the file of “picture.png”?' })).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(replaced).toEqual([]);
  await chooser();
  const done = page.waitForResponse((response) => response.url().endsWith('/content') && response.ok());
  await page.getByRole('dialog').getByRole('button', { name: 'Replace the file' }).click();
  await done;
  expect(replaced).toHaveLength(1);
  await card.getByRole('button', { name: 'Delete picture.png' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(card).toHaveCount(0);
  await expect(page.getByText('Nothing uploaded yet.')).toBeVisible();
});

test('a viewer sees the library and can neither upload nor delete', async ({ page, stack }) => {
  const body = new FormData();
  body.append('file', new Blob([await readFile(PICTURE)], { type: 'image/png' }), 'picture.png');
  const uploaded = await fetch(`${stack.serviceUrl}/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.admin}` },
    body,
  });
  expect(uploaded.status).toBe(201);

  await signIn(page, stack, VIEWER);
  await page.goto(`${stack.serviceUrl}/console/media`);
  await expect(cardOf(page, 'picture.png').getByRole('img', { name: 'picture.png' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Choose files…' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Delete picture.png' })).toBeDisabled();
  await expect(page.getByText('Viewers can see everything but change nothing').first()).toBeVisible();
  await checkPage(page, 'media-viewer');
});
