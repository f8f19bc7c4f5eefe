// The Electron app itself, driven by Playwright: the packaged app when WALLBOARD_PACKAGED_APP names
// its executable (out/linux-unpacked/wallboard), else dist/main with node_modules' Electron binary.
// Skipped, with the reason, where neither exists: no Electron binary can be downloaded here.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron, expect, test } from '@playwright/test';
import { findElectronBinary, type ElectronBinary } from '../src/launcher/electron-binary';
import { startEmbeddedService, type EmbeddedService } from '../src/launcher/embedded-service';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PACKAGED = process.env.WALLBOARD_PACKAGED_APP;
const TAG = 'e2e-electron';

function binary(): ElectronBinary {
  if (PACKAGED) {
    return existsSync(PACKAGED)
      ? { ok: true, path: PACKAGED }
      : { ok: false, reason: `${PACKAGED} does not exist` };
  }
  const found = findElectronBinary(ROOT, process.env);
  if (found.ok && !existsSync(join(ROOT, 'dist', 'main', 'index.cjs'))) {
    return { ok: false, reason: 'dist/main is missing: run `npm run build:main` first' };
  }
  return found;
}

const found = binary();
const skipReason = found.ok ? '' : `no Electron binary on this machine: ${found.reason}`;
if (!found.ok) console.warn(`e2e/electron.spec.ts: skipped, ${skipReason}`);

test.describe('the Electron kiosk', () => {
  test.skip(!found.ok, skipReason);

  let dir: string;
  let service: EmbeddedService;

  test.beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wallboard-electron-e2e-'));
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
    service = await startEmbeddedService({ dataDir: join(dir, 'service'), deviceTag: TAG, log });
  });

  test.afterEach(async () => {
    await service?.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('shows the demo board, locked down', async () => {
    test.setTimeout(90_000);
    if (!found.ok) return;
    const app = await electron.launch({
      executablePath: found.path,
      args: [...(PACKAGED ? [] : [ROOT]), '--windowed'],
      env: {
        ...process.env,
        WALLBOARD_SERVER: service.url,
        WALLBOARD_TOKEN: service.token,
        WALLBOARD_TAG: TAG,
        WALLBOARD_USER_DATA: join(dir, 'user-data'),
      },
    });
    try {
      const page = await app.firstWindow();
      await expect(page).toHaveURL('app://wallboard/index.html');
      await expect(page.locator('[data-board-name="Wallboard demo"]')).toBeVisible({ timeout: 30_000 });
      // The page has the bridge contract and nothing of Node or Electron.
      const exposed = await page.evaluate(() => ({
        bridge: Object.keys((window as unknown as { wallboard?: object }).wallboard ?? {}).sort(),
        require: typeof (globalThis as { require?: unknown }).require,
        process: typeof (globalThis as { process?: unknown }).process,
      }));
      expect(exposed).toEqual({
        bridge: ['getState', 'log', 'onMessage', 'reportFailure', 'reportShowing'],
        require: 'undefined',
        process: 'undefined',
      });
      const state = await page.evaluate(() =>
        (window as unknown as { wallboard: { getState(): Promise<unknown> } }).wallboard.getState(),
      );
      expect(JSON.stringify(state)).not.toContain(service.token);
      // Navigation away is refused: the page stays ours.
      await page.evaluate(() => {
        window.location.href = 'https://example.com/';
      });
      await expect(page.locator('[data-board-name="Wallboard demo"]')).toBeVisible();
      expect(page.url()).toBe('app://wallboard/index.html');
    } finally {
      await app.close();
    }
  });
});
