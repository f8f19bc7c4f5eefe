import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { exitOnSignals, FORCE_EXIT_MS, type SignalProcess } from './graceful-exit';

/** A process whose signals the test raises and whose exit it records. */
function fakeProcess() {
  const emitter = new EventEmitter();
  const exits: number[] = [];
  const proc = {
    on: (event: string, listener: (...args: unknown[]) => void) => emitter.on(event, listener),
    off: (event: string, listener: (...args: unknown[]) => void) => emitter.off(event, listener),
    exit: (code?: number) => void exits.push(code ?? 0),
  } as unknown as SignalProcess;
  return { proc, exits, raise: (signal: NodeJS.Signals) => emitter.emit(signal, signal) };
}

function deferred() {
  let resolve: () => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe('exitOnSignals', () => {
  const lines: string[] = [];
  const log = { info: (line: string) => lines.push(line), error: (line: string) => lines.push(line) };
  beforeEach(() => {
    vi.useFakeTimers();
    lines.length = 0;
  });
  afterEach(() => vi.useRealTimers());

  it('stops once on SIGTERM or SIGINT and exits 0 when the stop is done', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const { proc, exits, raise } = fakeProcess();
      const stop = deferred();
      const stopFn = vi.fn(() => stop.promise);
      exitOnSignals({ stop: stopFn, log, proc });
      raise(signal);
      expect(stopFn).toHaveBeenCalledOnce();
      expect(exits).toEqual([]);
      stop.resolve();
      await vi.advanceTimersByTimeAsync(0);
      expect(exits).toEqual([0]);
      // The deadline was cleared with the stop.
      await vi.advanceTimersByTimeAsync(FORCE_EXIT_MS);
      expect(exits).toEqual([0]);
      expect(lines.at(-1)).toMatch(new RegExp(`^${signal}: stopping`));
    }
  });

  it('forces the exit with status 1 when the stop is not done after 10 s', async () => {
    const { proc, exits, raise } = fakeProcess();
    exitOnSignals({ stop: () => new Promise(() => undefined), log, proc });
    raise('SIGTERM');
    await vi.advanceTimersByTimeAsync(FORCE_EXIT_MS - 1);
    expect(exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(exits).toEqual([1]);
    expect(lines.at(-1)).toBe('the stop did not finish in 10 s: forcing the exit');
  });

  it('forces the exit at once on a second signal', async () => {
    const { proc, exits, raise } = fakeProcess();
    const stopFn = vi.fn(() => new Promise<void>(() => undefined));
    exitOnSignals({ stop: stopFn, log, proc, forceAfterMs: 60_000 });
    raise('SIGTERM');
    raise('SIGINT');
    expect(exits).toEqual([1]);
    expect(stopFn).toHaveBeenCalledOnce();
    expect(lines.at(-1)).toBe('SIGINT again: forcing the exit without finishing the stop');
  });

  it('exits 1, saying why, when the stop fails', async () => {
    const { proc, exits, raise } = fakeProcess();
    exitOnSignals({ stop: () => Promise.reject(new Error('the store would not close')), log, proc });
    raise('SIGTERM');
    await vi.advanceTimersByTimeAsync(0);
    expect(exits).toEqual([1]);
    expect(lines.at(-1)).toBe('the stop failed: the store would not close');
  });

  it('leaves the signals alone once removed', () => {
    const { proc, exits, raise } = fakeProcess();
    const stopFn = vi.fn(async () => undefined);
    exitOnSignals({ stop: stopFn, log, proc })();
    raise('SIGTERM');
    expect(stopFn).not.toHaveBeenCalled();
    expect(exits).toEqual([]);
  });
});
