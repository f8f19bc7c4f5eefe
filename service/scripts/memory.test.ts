// The scripts' memory limit, measured: what a script got before it was refused, and the resident
// memory of its host process as the kernel counts it (Linux /proc), never only the error text.
import { readFile, readdir } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_LIMITS, ScriptSandbox, type LibraryHandler, type SandboxResult } from './sandbox';

const MB = 1024 * 1024;
const LIMIT_MB = DEFAULT_LIMITS.memoryMb;
const noLibraries: LibraryHandler = async () => null;

/** The fields of /proc/<pid>/status, in bytes: VmRSS (now) and VmHWM (the peak). */
async function memoryOf(pid: number): Promise<{ resident: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1]) * 1024;
  return { resident: field('VmRSS'), peak: field('VmHWM') };
}

/** The script hosts: this process's living children. */
async function hostPids(): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // The state and the parent's pid follow the command, which is in parentheses.
    const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(parent) === process.pid && state !== 'Z') pids.push(Number(entry));
  }
  return pids;
}

let sandbox: ScriptSandbox;
afterEach(() => sandbox.close());

async function run(code: string, timeoutMs = 20_000): Promise<SandboxResult> {
  return sandbox.run(code, '{}', { ...DEFAULT_LIMITS, timeoutMs }, noLibraries).result;
}

/** The single host of a one-host sandbox, its memory measured after a trivial run. */
async function warmHost(): Promise<{ pid: number; resident: number }> {
  expect(await run('return 1')).toMatchObject({ outcome: 'ok' });
  const pid = await vi.waitFor(
    async () => {
      const pids = await hostPids();
      expect(pids).toHaveLength(1);
      return pids[0]!;
    },
    { timeout: 10_000 },
  );
  return { pid, resident: (await memoryOf(pid)).resident };
}

/** Allocates until refused, catches the refusal, frees, and says how much it got. */
const HOARD = (allocate: string) => `
  let kept = [];
  let count = 0;
  try {
    for (;;) { kept.push(${allocate}); count += 1; }
  } catch (error) {
    kept = null;
    console.log(String(count));
  }
  return count;`;

describe.skipIf(process.platform !== 'linux')('a run cannot allocate more than its memory limit', () => {
  it('ArrayBuffers included: the script gets at most its limit, and the host grows by no more', async () => {
    sandbox = new ScriptSandbox({ idle: 1 });
    const host = await warmHost();
    const result = await run(HOARD('new ArrayBuffer(1024 * 1024)'));
    // Caught by the script, the refusal still ends the run: it ran out of memory.
    expect(result).toMatchObject({ outcome: 'error', error: expect.stringMatching(/ran out of memory/) });
    const gotMb = Number(result.logs[0]);
    expect(gotMb).toBeGreaterThan(LIMIT_MB / 2);
    expect(gotMb).toBeLessThanOrEqual(LIMIT_MB);
    const { peak } = await memoryOf(host.pid);
    expect((peak - host.resident) / MB).toBeLessThanOrEqual(LIMIT_MB + 16);
  });

  it('plain objects too, however small each is', async () => {
    sandbox = new ScriptSandbox({ idle: 1 });
    const host = await warmHost();
    const result = await run(HOARD('{ count }'));
    expect(result.outcome).toBe('error');
    // Each object takes some tens of bytes of the engine's memory: far fewer than a million fit.
    expect(Number(result.logs[0])).toBeLessThan(1_500_000);
    const { peak } = await memoryOf(host.pid);
    expect((peak - host.resident) / MB).toBeLessThanOrEqual(LIMIT_MB + 16);
  });

  it('gives what a run allocated back: idle hosts hold little once the runs have ended', async () => {
    sandbox = new ScriptSandbox({ idle: 2 });
    const hoards = Array.from({ length: 4 }, () => run(HOARD('new ArrayBuffer(1024 * 1024)')));
    for (const result of await Promise.all(hoards)) expect(result.outcome).toBe('error');
    // The hosts free what the runs took once they have ended; the kernel's count follows.
    await vi.waitFor(
      async () => {
        const pids = await hostPids();
        expect(pids.length).toBeGreaterThan(0);
        for (const pid of pids) expect((await memoryOf(pid)).resident / MB).toBeLessThan(128);
      },
      { timeout: 10_000 },
    );
    // And the next run has its whole limit again.
    const again = await run(HOARD('new ArrayBuffer(1024 * 1024)'));
    expect(Number(again.logs[0])).toBeGreaterThan(LIMIT_MB / 2);
  });

  it('ends a run whose host grows past its bound as measured from outside, and kills that host', async () => {
    // A bound below what any host holds: the watch of its resident memory must end the run.
    sandbox = new ScriptSandbox({ idle: 1, hostBaseMb: -LIMIT_MB });
    const started = Date.now();
    const result = await run('await new Promise((resolve) => setTimeout(resolve, 10000))');
    expect(result).toMatchObject({ outcome: 'error', error: expect.stringMatching(/ran out of memory/) });
    expect(Date.now() - started).toBeLessThan(5000);
    // The host it ran in is gone; only a fresh one may wait.
    await vi.waitFor(async () => expect((await hostPids()).length).toBeLessThanOrEqual(1), {
      timeout: 10_000,
    });
  });
});
