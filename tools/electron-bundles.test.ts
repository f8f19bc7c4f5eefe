// Packages the app with electron-builder as a release would (`--linux dir`), with a prepared
// folder in place of the Electron binary we cannot download, and checks what app.asar holds.
import { execFile } from 'node:child_process';
import { builtinModules } from 'node:module';
import { chmod, cp, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { extractFile, listPackage } from '@electron/asar';
import { build as viteBuild } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundles } from './electron-bundles';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);
/** Optional requires of bundled libraries, each inside a try: ws's native speed-ups, macOS sensors. */
const OPTIONAL = new Set([
  'bufferutil',
  'utf-8-validate',
  'osx-temperature-sensor',
  'macos-temperature-sensor',
]);

let dir: string;
let project: string;
let unpacked: string;
let files: string[];

/** What electron-builder needs of an unpacked Electron for Linux: the binary, its resources and locales. */
async function fakeElectronDist(path: string): Promise<void> {
  await mkdir(join(path, 'resources'), { recursive: true });
  await mkdir(join(path, 'locales'));
  await writeFile(join(path, 'electron'), '#!/bin/sh\necho "a stand-in for Electron" >&2\nexit 1\n');
  await chmod(join(path, 'electron'), 0o755);
  await writeFile(join(path, 'locales', 'en-US.pak'), '');
  await writeFile(join(path, 'LICENSE'), 'stand-in');
  await writeFile(join(path, 'version'), '45.4.1');
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-package-'));
  // A copy of the project, so the bundles and the output never touch the shared dist/ and out/.
  project = join(dir, 'project');
  await mkdir(project);
  for (const name of ['package.json', 'electron-builder.yml', 'resources']) {
    await cp(join(ROOT, name), join(project, name), { recursive: true });
  }
  await symlink(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
  await buildBundles(join(project, 'dist'));
  await viteBuild({
    configFile: join(ROOT, 'renderer', 'vite.config.ts'),
    logLevel: 'error',
    build: { outDir: join(project, 'dist', 'renderer'), emptyOutDir: true },
  });
  await fakeElectronDist(join(dir, 'electron-dist'));
  await run(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'electron-builder', 'cli.js'),
      '--projectDir',
      project,
      '--linux',
      'dir',
      `-c.electronDist=${join(dir, 'electron-dist')}`,
      `-c.directories.output=${join(dir, 'out')}`,
    ],
    { cwd: project, timeout: 120_000, env: { ...process.env, CI: 'true' } },
  );
  unpacked = join(dir, 'out', 'linux-unpacked');
  files = listPackage(join(unpacked, 'resources', 'app.asar'), { isPack: false });
}, 180_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the packaged app', () => {
  it('holds the main, preload and renderer bundles and package.json', () => {
    for (const file of [
      '/dist/main/index.cjs',
      '/dist/preload/index.cjs',
      '/dist/renderer/index.html',
      '/package.json',
    ]) {
      expect(files, file).toContain(file);
    }
    expect(files.some((file) => /^\/dist\/renderer\/assets\/index-.*\.js$/.test(file))).toBe(true);
  });

  it('holds no node_modules, no dev dependency, no source map and no source', () => {
    expect(files.filter((file) => file.includes('node_modules'))).toEqual([]);
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    expect(files.filter((file) => file.endsWith('.ts'))).toEqual([]);
    for (const devDependency of [
      'vitest',
      'typescript',
      'electron-builder',
      'esbuild',
      'vite',
      'playwright',
    ]) {
      expect(
        files.some((file) => file.split('/').includes(devDependency)),
        devDependency,
      ).toBe(false);
    }
    const manifest = JSON.parse(
      extractFile(join(unpacked, 'resources', 'app.asar'), 'package.json').toString(),
    );
    expect(manifest.main).toBe('dist/main/index.cjs');
    expect(manifest.devDependencies).toBeUndefined();
    expect(manifest.scripts).toBeUndefined();
  });

  it('has bundles that need nothing but Node, Electron and optional speed-ups', () => {
    const asar = join(unpacked, 'resources', 'app.asar');
    const requiresOf = (file: string) =>
      new Set(
        [
          ...extractFile(asar, file)
            .toString()
            // Not one written inside a string: ajv (electron-store's conf) keeps `'require("ajv/…")'`
            // as text for code it generates standalone, which the app never does.
            .matchAll(/(?<!['`])require\("([^"]+)"\)/g),
        ].map((m) => m[1] ?? ''),
      );
    const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
    const main = [...requiresOf('dist/main/index.cjs')].filter((name) => !builtins.has(name));
    expect(main.filter((name) => name !== 'electron' && !OPTIONAL.has(name))).toEqual([]);
    // The sandboxed preload is one CommonJS file that may require only electron.
    expect([...requiresOf('dist/preload/index.cjs')]).toEqual(['electron']);
  });

  it('has a main bundle that loads on its own and answers --help', async () => {
    // Away from the project's node_modules, whose electron package would try to download itself.
    const smoke = join(dir, 'smoke');
    await mkdir(join(smoke, 'node_modules', 'electron'), { recursive: true });
    await writeFile(
      join(smoke, 'node_modules', 'electron', 'index.js'),
      'module.exports = { app: { isPackaged: false, exit: (code) => process.exit(code) } };\n',
    );
    await writeFile(
      join(smoke, 'index.cjs'),
      extractFile(join(unpacked, 'resources', 'app.asar'), 'dist/main/index.cjs'),
    );
    const { stdout } = await run(process.execPath, [join(smoke, 'index.cjs'), '--help'], { cwd: smoke });
    expect(stdout).toMatch(/^Usage: wallboard \[options\]/);
    expect(stdout).toContain('--install-autostart');
  });

  it('is named wallboard and ships the autostart templates beside app.asar', async () => {
    expect(await readdir(unpacked)).toContain('wallboard');
    expect((await readdir(join(unpacked, 'resources', 'linux'))).sort()).toEqual([
      'wallboard.desktop',
      'wallboard.service',
    ]);
  });
});
