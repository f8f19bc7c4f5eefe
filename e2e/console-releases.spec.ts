import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeReleaseManifest } from '../tools/release-manifest';
import { checkPage, consoleTest as test, expect } from './console-kit';

const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64');

/** The files electron-builder writes for a Linux build of `version`, in a folder of their own. */
async function shellBuild(version: string): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'wallboard-e2e-release-'));
  const installer = Buffer.alloc(200_000, version);
  const name = `Wallboard-${version}.AppImage`;
  const feed = [
    `version: ${version}`,
    'files:',
    `  - url: ${name}`,
    `    sha512: ${sha512(installer)}`,
    `    size: ${installer.length}`,
    `path: ${name}`,
    `sha512: ${sha512(installer)}`,
    "releaseDate: '2026-11-27T10:00:00.000Z'",
    '',
  ].join('\n');
  await writeFile(join(dir, name), installer);
  await writeFile(join(dir, 'latest-linux.yml'), feed);
  return [join(dir, name), join(dir, 'latest-linux.yml')];
}

test('an admin uploads a kiosk app release, rolls it out to a group, watches it install and pins a screen', async ({
  admin: page,
  stack,
}) => {
  test.setTimeout(90_000);
  const lobby = await stack.api<{ id: string }>('POST', '/groups', { name: 'Lobby' });
  for (const tag of ['lobby-left', 'lobby-right'])
    await stack.api('POST', '/devices', { tag, group_id: lobby.id });
  await stack.api('POST', '/devices', { tag: 'hall' });

  await page.getByRole('link', { name: 'Player releases' }).click();
  await expect(page.getByRole('heading', { name: 'Player releases', level: 1 })).toBeVisible();
  const upload = page.getByRole('region', { name: 'Upload a release' });
  const [installer, feed] = await shellBuild('2.4.0');
  // The installer alone: the form says the feed is needed before anything is sent.
  await upload.locator('input[type=file]').setInputFiles([installer!]);
  await expect(upload.getByText('needs the latest.yml')).toBeVisible();
  await expect(upload.getByRole('button', { name: 'Upload' })).toBeDisabled();
  await upload.locator('input[type=file]').setInputFiles([installer!, feed!]);
  await upload.getByRole('textbox', { name: 'Notes' }).fill('Starts faster after a power cut.');
  await upload.getByRole('button', { name: 'Upload' }).click();
  const releases = page.getByRole('table', { name: 'Releases' });
  await expect(releases.getByRole('row').nth(1)).toContainText('2.4.0');

  await releases.getByRole('button', { name: 'Roll out…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Roll out Kiosk app (shell) 2.4.0' });
  await dialog.getByRole('combobox', { name: 'Groups' }).click();
  await page.getByRole('option', { name: 'Lobby' }).click();
  await dialog.getByRole('button', { name: 'Roll out' }).click();
  const rollouts = page.getByRole('table', { name: 'Rollouts' });
  await expect(rollouts.getByRole('row').nth(1)).toContainText('0 of 2 on it, 2 pending');

  // A screen reports it installed: the progress follows, live.
  await stack.api('POST', '/devices/lobby-left/update-reports', {
    kind: 'shell',
    version: '2.4.0',
    outcome: 'installed',
  });
  await expect(rollouts.getByRole('row').nth(1)).toContainText('1 of 2 on it, 1 pending');
  await checkPage(page, 'releases');

  // The screen's page says what it runs and is offered, and pins it.
  await page.goto(`${stack.serviceUrl}/console/screens/lobby-right`);
  const software = page.getByRole('region', { name: 'Player software' });
  await expect(software).toContainText('Offered: 2.4.0.');
  await software.getByRole('combobox', { name: 'Pin Kiosk app (shell)' }).click();
  await page.getByRole('option', { name: 'Pinned to 2.4.0 (stable)' }).click();
  await expect(software).toContainText('Offered: 2.4.0 (pinned).');
  await page.setViewportSize({ width: 390, height: 844 });
  await software.scrollIntoViewIfNeeded();
  await checkPage(page, 'screen-releases');
});

test("an admin uploads the web player's built folder, each file under its path in the bundle", async ({
  admin: page,
  stack,
}) => {
  const dir = join(await mkdtemp(join(tmpdir(), 'wallboard-e2e-web-')), 'renderer');
  await mkdir(join(dir, 'assets'), { recursive: true });
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>Player</title>');
  await writeFile(join(dir, 'assets', 'index-abc.js'), 'console.log("player")');
  await writeReleaseManifest(dir, '0.3.0');

  await page.getByRole('link', { name: 'Player releases' }).click();
  const upload = page.getByRole('region', { name: 'Upload a release' });
  await upload.getByText('Web player', { exact: true }).click();
  await upload.getByLabel('Folder of the web player').setInputFiles(dir);
  await upload.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByRole('table', { name: 'Releases' }).getByRole('row').nth(1)).toContainText('0.3.0');
  const [release] = await stack.api<{ files: { name: string }[] }[]>('GET', '/releases?kind=web');
  expect(release?.files.map((file) => file.name)).toEqual(['assets/index-abc.js', 'index.html']);
});
