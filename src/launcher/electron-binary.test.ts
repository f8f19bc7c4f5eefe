import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { findElectronBinary } from './electron-binary';

let root: string;
let pkg: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'wallboard-electron-'));
  pkg = join(root, 'node_modules', 'electron');
});
afterEach(() => rm(root, { recursive: true, force: true }));

async function installPackage(pathTxt?: string): Promise<void> {
  await mkdir(join(pkg, 'dist'), { recursive: true });
  await writeFile(join(pkg, 'package.json'), '{"name":"electron","version":"45.4.1"}');
  if (pathTxt !== undefined) await writeFile(join(pkg, 'path.txt'), pathTxt);
}

it('says when the electron package is not installed', () => {
  expect(findElectronBinary(root, {})).toEqual({
    ok: false,
    reason: 'the electron package is not installed',
  });
});

it('says the binary was never downloaded, as on this machine, without trying to download it', async () => {
  await installPackage();
  const found = findElectronBinary(root, {});
  expect(found).toEqual({ ok: false, reason: expect.stringMatching(/holds no binary/) });
});

it('finds the binary that path.txt names, when it is there and executable', async () => {
  await installPackage('electron');
  expect(findElectronBinary(root, {})).toEqual({
    ok: false,
    reason: expect.stringMatching(/dist\/electron is missing or not executable/),
  });
  await writeFile(join(pkg, 'dist', 'electron'), '#!/bin/sh\n');
  await chmod(join(pkg, 'dist', 'electron'), 0o644);
  expect(findElectronBinary(root, {}).ok).toBe(false);
  await chmod(join(pkg, 'dist', 'electron'), 0o755);
  expect(findElectronBinary(root, {})).toEqual({ ok: true, path: join(pkg, 'dist', 'electron') });
});

it('honours ELECTRON_OVERRIDE_DIST_PATH as the electron package does', async () => {
  await installPackage();
  const dist = join(root, 'my-electron');
  await mkdir(dist);
  await writeFile(join(dist, 'electron'), '#!/bin/sh\n', { mode: 0o755 });
  expect(findElectronBinary(root, { ELECTRON_OVERRIDE_DIST_PATH: dist })).toEqual({
    ok: true,
    path: join(dist, 'electron'),
  });
});

it('reports the real state of this checkout (electron@45 installed for its types only)', () => {
  const found = findElectronBinary(join(import.meta.dirname, '..', '..'), {});
  // Wherever a binary was downloaded this passes too; here it explains why there is none.
  if (!found.ok) expect(found.reason).toMatch(/no binary|not installed|missing/);
});
