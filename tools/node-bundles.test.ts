// The bundles run on plain Node: no tsx, no esbuild at run time. Built into a folder of their own
// (with the repository's node_modules beside it for the few external packages), not into dist/.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_BUNDLES, buildNodeBundle, storeTemplateOf } from './node-bundles';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);
let dir = '';
let service = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-bundles-'));
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  service = await buildNodeBundle('service', join(dir, 'dist'));
}, 60_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the Node bundles', () => {
  it('are what the npm scripts run, after the freshness check and with no tsx', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const runs = { start: 'launcher', service: 'service', 'start:web': 'web-player' } as const;
    for (const [script, bundle] of Object.entries(runs)) {
      expect(scripts[script]).toBe(
        `node tools/build.ts --if-stale ${bundle} && node dist/${NODE_BUNDLES[bundle].outfile}`,
      );
    }
    for (const script of ['build', 'build:renderer', 'build:main', 'build:script-host']) {
      expect(scripts[script]).toMatch(/^node tools\/build\.ts\b/);
    }
  });

  it('run the service command line: --help, token create', async () => {
    const help = await run(process.execPath, [service, '--help']);
    expect(help.stdout).toContain('npm run service -- [options]');
    const created = await run(process.execPath, [
      service,
      ...['token', 'create', '--scope', 'affiliated', '--data', join(dir, 'data')],
    ]);
    expect(created.stdout).toMatch(/^wb_[\w-]{20,}\n$/);
  }, 60_000);

  it('load at their start none of what a package imported at its first use imports: undici stays unloaded', async () => {
    // Node's own modules loaded by the time the process ends, --help having evaluated the bundle.
    const listing =
      'data:text/javascript,process.on("exit", () => console.error(process.moduleLoadList.join("\\n")))';
    const { stderr } = await run(process.execPath, ['--import', listing, service, '--help']);
    expect(stderr).toContain('NativeModule http\n');
    // nodemailer's ES build imported node:http as an ES module, whose facade loads undici.
    expect(stderr).not.toContain('undici');
  }, 60_000);

  it('make a new store a copy of the template built beside them', async () => {
    // Marked in its header, which a copy keeps and the migrations never write.
    const template = new DatabaseSync(join(dir, 'dist', storeTemplateOf(NODE_BUNDLES.service.outfile)));
    template.exec('pragma user_version = 7');
    template.close();
    const data = join(dir, 'from-template');
    await run(process.execPath, [service, ...['token', 'create', '--scope', 'full', '--data', data]]);
    const store = new DatabaseSync(join(data, 'wallboard.sqlite'), { readOnly: true });
    try {
      expect(store.prepare('pragma user_version').get()).toEqual({ user_version: 7 });
      expect(store.prepare('select count(*) as tokens from tokens').get()).toEqual({ tokens: 1 });
    } finally {
      store.close();
    }
  }, 60_000);

  it("start with V8's compile cache on: what a start compiles is kept for the next", async () => {
    // In the system's temporary folder when NODE_COMPILE_CACHE names none, as on a screen.
    const temporary = join(dir, 'tmp');
    await mkdir(temporary);
    const { NODE_COMPILE_CACHE: _named, ...env } = process.env;
    await run(process.execPath, [service, '--help'], { env: { ...env, TMPDIR: temporary } });
    const cache = join(temporary, 'node-compile-cache');
    const files = await readdir(cache, { recursive: true });
    const sizes = await Promise.all(files.map(async (file) => (await stat(join(cache, file))).size));
    // The service's compiled code, not an empty folder: its entry alone is a few hundred bytes.
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeGreaterThan(500_000);
  }, 60_000);

  it('look for the script host beside themselves and never build it', async () => {
    const admin = 'bundle-test-admin-token-0123';
    const child = spawn(process.execPath, [service, '--port', '0', '--data', join(dir, 'served')], {
      env: { ...process.env, WALLBOARD_ADMIN_TOKEN: admin },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /listening on (http:\/\/\S+)/.exec(output);
          if (match?.[1]) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`the service exited with ${code}: ${output}`)));
      });
      const api = async (path: string, body?: unknown) => {
        const response = await fetch(`${url}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
          body: JSON.stringify(body ?? {}),
        });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      const script = await api('/scripts', { name: 'one', code: 'return 1', interval: '1h', enabled: false });
      const ran = await api(`/scripts/${String(script.body.id)}/run`);
      // No dist/script-host/host.cjs beside this bundle: the run says so, and nothing was built.
      expect(JSON.stringify(ran.body)).toContain(
        `${join(dir, 'dist', 'script-host', 'host.cjs')} is missing: run \`npm run build\``,
      );
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }, 60_000);
});
