import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createFileLogger } from './file-logger';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-log-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const now = () => new Date('2026-01-02T03:04:05.000Z');

it('writes lines with a time and a level, and echoes them', async () => {
  const echoed: string[] = [];
  const log = createFileLogger({ dir: join(dir, 'logs'), echo: (line) => echoed.push(line), now });
  log.info('starting');
  log.warn('two\nlines');
  expect(await readFile(log.file, 'utf8')).toBe(
    '2026-01-02T03:04:05.000Z info starting\n2026-01-02T03:04:05.000Z warn two | lines\n',
  );
  expect(echoed).toHaveLength(2);
});

it('rotates by size and keeps only the newest files', async () => {
  const log = createFileLogger({ dir, maxBytes: 200, keep: 2, now });
  for (let i = 0; i < 40; i += 1) log.info(`line ${String(i).padStart(2, '0')} ${'x'.repeat(20)}`);
  expect((await readdir(dir)).sort()).toEqual(['wallboard.1.log', 'wallboard.2.log', 'wallboard.log']);
  const newest = await readFile(join(dir, 'wallboard.log'), 'utf8');
  expect(newest).toContain('line 39');
  expect(newest.length).toBeLessThanOrEqual(200);
  const all = [
    await readFile(join(dir, 'wallboard.2.log'), 'utf8'),
    await readFile(join(dir, 'wallboard.1.log'), 'utf8'),
    newest,
  ].join('');
  const numbers = [...all.matchAll(/line (\d+)/g)].map((m) => Number(m[1]));
  // Consecutive: rotation loses only the oldest lines.
  expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! + i));
  expect(numbers.at(-1)).toBe(39);
});

it('goes on (on stderr only) when the log folder cannot be written', async () => {
  const echoed: string[] = [];
  // A folder under a regular file cannot exist.
  await writeFile(join(dir, 'a-file'), '');
  const log = createFileLogger({ dir: join(dir, 'a-file', 'logs'), echo: (line) => echoed.push(line), now });
  log.error('still running');
  log.info('and again');
  expect(echoed[1]).toMatch(/cannot write the log file/);
  expect(echoed).toHaveLength(3);
});
