import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export type ElectronBinary = { ok: true; path: string } | { ok: false; reason: string };

/**
 * The Electron executable that `require('electron')` would name, found the same way
 * (node_modules/electron/path.txt, or ELECTRON_OVERRIDE_DIST_PATH) but without its side effect:
 * when the binary is missing, electron@45's index.js starts downloading it, which on an offline
 * machine hangs or fails instead of answering.
 */
export function findElectronBinary(root: string, env: Record<string, string | undefined>): ElectronBinary {
  const packageDir = join(root, 'node_modules', 'electron');
  if (!existsSync(join(packageDir, 'package.json'))) {
    return { ok: false, reason: 'the electron package is not installed' };
  }
  const pathFile = join(packageDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  let path: string;
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    path = join(env.ELECTRON_OVERRIDE_DIST_PATH, relative || 'electron');
  } else if (relative) {
    path = join(packageDir, 'dist', relative);
  } else {
    return {
      ok: false,
      reason: 'node_modules/electron holds no binary (its download at install time did not happen)',
    };
  }
  try {
    if (!statSync(path).isFile()) return { ok: false, reason: `${path} is not a file` };
    accessSync(path, constants.X_OK);
  } catch {
    return { ok: false, reason: `${path} is missing or not executable` };
  }
  return { ok: true, path };
}
