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

const parse = (text: string): Record<string, unknown>[] =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

it('writes JSON lines with an ISO time, a level word and the name, and echoes them', async () => {
  const echoed: string[] = [];
  const log = createFileLogger({ dir: join(dir, 'logs'), echo: (line) => echoed.push(line) });
  log.info('starting');
  log.warn('two\nlines');
  const lines = parse(await readFile(log.file, 'utf8'));
  expect(lines).toEqual([
    expect.objectContaining({ level: 'info', name: 'shell', msg: 'starting', pid: process.pid }),
    expect.objectContaining({ level: 'warn', name: 'shell', msg: 'two\nlines' }),
  ]);
  expect(lines[0]!.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  expect(echoed.join('')).toBe(await readFile(log.file, 'utf8'));
});

it('logs from the level WALLBOARD_LOG_LEVEL names, and at info (saying so) for a wrong one', async () => {
  const quiet = createFileLogger({ dir: join(dir, 'quiet'), level: 'warn' });
  quiet.info('not written');
  quiet.error('written');
  expect(parse(await readFile(quiet.file, 'utf8')).map((line) => line.msg)).toEqual(['written']);

  const wrong = createFileLogger({ dir: join(dir, 'wrong'), level: 'loud' });
  wrong.info('written at info');
  expect(parse(await readFile(wrong.file, 'utf8')).map((line) => line.msg)).toEqual([
    expect.stringMatching(/WALLBOARD_LOG_LEVEL "loud" is none of .*: logging at info/),
    'written at info',
  ]);
});

it('rotates by size and keeps only the newest files', async () => {
  const log = createFileLogger({ dir, maxBytes: 1000, keep: 2 });
  for (let i = 0; i < 60; i += 1) log.info(`line ${String(i).padStart(2, '0')} ${'x'.repeat(20)}`);
  expect((await readdir(dir)).sort()).toEqual(['wallboard.1.log', 'wallboard.2.log', 'wallboard.log']);
  const newest = await readFile(join(dir, 'wallboard.log'), 'utf8');
  expect(newest).toContain('line 59');
  expect(newest.length).toBeLessThanOrEqual(1000);
  const all = [
    await readFile(join(dir, 'wallboard.2.log'), 'utf8'),
    await readFile(join(dir, 'wallboard.1.log'), 'utf8'),
    newest,
  ].join('');
  const numbers = parse(all).map((line) => Number(/line (\d+)/.exec(String(line.msg))?.[1]));
  // Consecutive: rotation loses only the oldest lines.
  expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! + i));
  expect(numbers.at(-1)).toBe(59);
});

it('goes on (echoing only) when the log folder cannot be written, and says why once', async () => {
  const echoed: string[] = [];
  // A folder under a regular file cannot exist.
  await writeFile(join(dir, 'a-file'), '');
  const log = createFileLogger({ dir: join(dir, 'a-file', 'logs'), echo: (line) => echoed.push(line) });
  log.error('still running');
  await Promise.resolve();
  log.info('and again');
  expect(parse(echoed.join('')).map((line) => line.msg)).toEqual([
    'still running',
    expect.stringMatching(/^cannot write the log file .*wallboard\.log: Error: ENOTDIR/),
    'and again',
  ]);
});
