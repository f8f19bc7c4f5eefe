// What a build prints: one line, however much the bundlers say (on a fresh clone vite said some
// 8,500 lines), their output in the log, and a failure shown. The child here stands in for the
// build's own (`tools/build.ts --worker`), so no bundler runs.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildLogged, esbuildWarnings, summaryLine } from './build-output';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-build-output-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A child that talks as the bundlers do, reports what `reports` says, and exits with `status`. */
async function child(reports: unknown[], status = 0): Promise<string> {
  const file = join(dir, 'child.mjs');
  await writeFile(
    file,
    [
      'for (let i = 0; i < 4000; i += 1) console.warn(`[MODULE_LEVEL_DIRECTIVE] warning ${i}`);',
      "process.stdout.write('▲ [WARNING] an esbuild warning\\n\\n');",
      `for (const report of ${JSON.stringify(reports)}) await new Promise((done) => process.send(report, done));`,
      `process.exit(${status});`,
    ].join('\n'),
  );
  return file;
}

describe('a build in a child', () => {
  it("puts the bundlers' output in the log and gathers each target's report", async () => {
    const log = join(dir, 'dist', 'build.log');
    const todo = [
      { name: 'console', reason: 'not built yet' },
      { name: 'main', reason: 'not built yet' },
    ];
    const results = await buildLogged(
      await child([
        { name: 'console', warnings: 4000 },
        { name: 'main', warnings: 0 },
      ]),
      [],
      todo,
      log,
    );
    expect(results).toEqual([
      { name: 'console', warnings: 4000 },
      { name: 'main', warnings: 0 },
    ]);
    const text = await readFile(log, 'utf8');
    expect(text.split('\n').filter((line) => line.startsWith('[MODULE_LEVEL_DIRECTIVE]'))).toHaveLength(4000);
    expect(await esbuildWarnings(log)).toBe(1);
    const line = summaryLine({ todo, seconds: 8.61, warnings: 4001, failed: [], logFile: log, root: dir });
    expect(line).toBe('built console, main in 8.6 s (not built yet); 4001 warnings in dist/build.log');
    expect(line.split('\n')).toHaveLength(1);
  });

  it('fails a target the child never reported, with the end of the log as its message', async () => {
    const log = join(dir, 'build.log');
    const todo = [
      { name: 'renderer', reason: 'sources changed' },
      { name: 'launcher', reason: 'not built yet' },
    ];
    const results = await buildLogged(await child([{ name: 'renderer', warnings: 0 }], 3), [], todo, log);
    expect(results[0]).toEqual({ name: 'renderer', warnings: 0 });
    expect(results[1]?.name).toBe('launcher');
    expect(results[1]?.error).toMatch(/^the build exited with status 3\n/);
    expect(results[1]?.error?.split('\n').length).toBeLessThanOrEqual(31);
    expect(
      summaryLine({ todo, seconds: 1, warnings: 0, failed: ['launcher'], logFile: log, root: dir }),
    ).toBe(
      'built renderer (sources changed) in 1.0 s; launcher failed (above); the whole output in build.log',
    );
  });
});
