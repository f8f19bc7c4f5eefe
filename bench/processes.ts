// What the benches read of a process: the time from a spawn to the first answer of GET /health,
// resident memory (the process and its children) and CPU time.
import { readdir, readFile } from 'node:fs/promises';

/** One request to the service (or the floor) with a token; a refusal throws with its body. */
export async function apiRequest<T>(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

/** Asks GET /health until it answers 200; returns the milliseconds from `since` (performance.now()). */
export async function untilHealthy(url: string, since: number, timeoutMs = 60_000): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(`${url}/health`);
      await response.arrayBuffer();
      if (response.ok) return performance.now() - since;
    } catch {
      // Not answering yet.
    }
    if (performance.now() > deadline) throw new Error(`${url}/health did not answer in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime: its own CPU and that of the children it reaped, in ticks. */
  cpuTicks: number;
}

async function readStat(pid: string): Promise<ProcStat | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuTicks = [11, 12, 13, 14].reduce((sum, field) => sum + Number(fields[field]), 0);
    return { pid: Number(pid), ppid: Number(fields[1]), cpuTicks };
  } catch {
    return undefined; // Gone meanwhile.
  }
}

/** Resident set size in MB of the process `pid` alone. */
export async function rssMb(pid: number): Promise<number> {
  return (await rssKb(pid)) / 1024;
}

/** Linux's USER_HZ: /proc counts CPU time in these. */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user and system) the process `pid` used so far. */
export async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

async function rssKb(pid: number): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/**
 * Resident set size in MB of `pid` and all its descendants (script hosts, if any run), from Linux's
 * /proc; NaN where there is none.
 */
export async function treeRssMb(pid: number): Promise<number> {
  const tree = await processTree(pid);
  if (!tree) return Number.NaN;
  const kb = await Promise.all(tree.map((stat) => rssKb(stat.pid)));
  return kb.reduce((sum, value) => sum + value, 0) / 1024;
}

/**
 * CPU seconds (user and system) of `pid` and all its descendants, those running and those ended
 * and reaped (the service's script hosts come and go), from Linux's /proc; NaN where there is none.
 */
export async function treeCpuSeconds(pid: number): Promise<number> {
  const tree = await processTree(pid);
  if (!tree) return Number.NaN;
  return tree.reduce((sum, stat) => sum + stat.cpuTicks, 0) / TICKS_PER_SECOND;
}

/** `pid` and its descendants as /proc lists them now; undefined without /proc. */
async function processTree(pid: number): Promise<ProcStat[] | undefined> {
  let entries: string[];
  try {
    entries = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  const stats = (await Promise.all(entries.map(readStat))).filter((stat) => stat !== undefined);
  const tree = new Map(stats.filter((stat) => stat.pid === pid).map((stat) => [stat.pid, stat]));
  // Parents come before children in most listings, not all: repeat until nothing is added.
  for (let added = true; added;) {
    added = false;
    for (const stat of stats) {
      if (tree.has(stat.ppid) && !tree.has(stat.pid)) {
        tree.set(stat.pid, stat);
        added = true;
      }
    }
  }
  return [...tree.values()];
}
