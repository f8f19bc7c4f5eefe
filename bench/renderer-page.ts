// What bench/renderer measures in a page, the board's and the bare one's alike: long tasks (a
// PerformanceObserver), WebSocket messages received, the frame after the page first showed all its
// content, frame times (requestAnimationFrame deltas) over a window, and the main thread's busy
// share two ways: the CPU time of its tasks from a Chromium trace (the `toplevel` category's
// tasks and their thread time), and the wall time of its tasks from Chromium's own counters (CDP
// `Performance.getMetrics`: TaskDuration, tasks of any kind: script, style, layout, paint). On a
// machine busy with other work the second counts the time the thread waited for a core.
import type { BrowserContext, CDPSession, Page } from '@playwright/test';

/** When a page shows all its content: `count` elements match `selector` and none matches `empty`. */
export interface Complete {
  selector: string;
  count: number;
  empty?: string;
}

/** What the init script keeps in the page. */
interface ProbeWindow {
  benchLongTasks: { start: number; duration: number }[];
  benchMessages: number;
  benchPainted?: number;
}

/** Installs the probes in every page of `context`, before any of the page's own scripts runs. */
export async function installProbes(context: BrowserContext, complete: Complete): Promise<void> {
  // tsx compiles this file with esbuild's keepNames, which wraps named functions in `__name()`:
  // the functions sent to the page need that helper there too.
  await context.addInitScript({ content: 'globalThis.__name = (target) => target;' });
  await context.addInitScript((done: Complete) => {
    const probe = window as unknown as ProbeWindow;
    probe.benchLongTasks = [];
    probe.benchMessages = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        probe.benchLongTasks.push({ start: entry.startTime, duration: entry.duration });
      }
    }).observe({ type: 'longtask', buffered: true });
    // Counts what arrives, whoever listens: a capture listener added at construction.
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        this.addEventListener('message', () => (probe.benchMessages += 1));
      }
    };
    const observer = new MutationObserver(() => {
      if (document.querySelectorAll(done.selector).length !== done.count) return;
      if (done.empty && document.querySelector(done.empty)) return;
      observer.disconnect();
      // The frame after the one that drew it marks the paint.
      requestAnimationFrame(() => requestAnimationFrame(() => (probe.benchPainted = performance.now())));
    });
    observer.observe(document, { childList: true, subtree: true, characterData: true });
  }, complete);
}

/** Opens `url` and waits for the frame after all its content showed; that time from navigation start. */
export async function firstPaint(page: Page, url: string): Promise<number> {
  await page.goto(url);
  const painted = await page.waitForFunction(() => (window as unknown as ProbeWindow).benchPainted, null, {
    timeout: 60_000,
  });
  return (await painted.jsonValue()) as number;
}

export interface Window {
  /** requestAnimationFrame deltas, ms. */
  frames: number[];
  longTasks: number[];
  messages: number;
  /** Shares of wall time the main thread was busy: all tasks, and script, style and layout in them. */
  busy: { task: number; script: number; style: number; layout: number };
  /** Share of wall time the main thread spent on a core running tasks. */
  cpu: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/**
 * The thread time of the page's main thread's tasks, ms: the renderer main thread that ran the
 * most (framed pages run in processes of their own), nested tasks counted once.
 */
function mainThreadCpuMs(events: TraceEvent[]): number {
  const mains = new Set(
    events
      .filter((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain')
      .map((event) => `${event.pid}:${event.tid}`),
  );
  const byThread = new Map<string, TraceEvent[]>();
  for (const event of events) {
    const thread = `${event.pid}:${event.tid}`;
    if (event.name !== 'ThreadControllerImpl::RunTask' || event.ph !== 'X' || !mains.has(thread)) continue;
    byThread.set(thread, [...(byThread.get(thread) ?? []), event]);
  }
  let most = 0;
  for (const tasks of byThread.values()) {
    tasks.sort((a, b) => a.ts - b.ts);
    let end = -Infinity;
    let cpu = 0;
    for (const task of tasks) {
      if (task.ts < end) continue;
      end = task.ts + (task.dur ?? 0);
      cpu += task.tdur ?? 0;
    }
    most = Math.max(most, cpu);
  }
  return most / 1000;
}

async function counters(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(metrics.map((metric) => [metric.name, metric.value]));
}

/** Measures the page for as long as `feed` runs (it drives the updates from outside). */
export async function measure(page: Page, cdp: CDPSession, feed: () => Promise<unknown>): Promise<Window> {
  await page.evaluate(() => {
    const state = { frames: [] as number[], stop: false, start: performance.now() };
    Object.assign(window, { benchWindow: state });
    const messages = (window as unknown as ProbeWindow).benchMessages;
    Object.assign(state, { messages });
    let last = -1;
    const frame = (now: number) => {
      if (last >= 0) state.frames.push(now - last);
      last = now;
      if (!state.stop) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  const browser = page.context().browser()!;
  await browser.startTracing(page, { categories: ['toplevel'] });
  const before = await counters(cdp);
  await feed();
  const after = await counters(cdp);
  const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
  const inPage = await page.evaluate(() => {
    const probe = window as unknown as ProbeWindow & {
      benchWindow: { frames: number[]; stop: boolean; start: number; messages: number };
    };
    const state = probe.benchWindow;
    state.stop = true;
    return {
      frames: state.frames,
      longTasks: probe.benchLongTasks
        .filter((task) => task.start >= state.start)
        .map((task) => task.duration),
      messages: probe.benchMessages - state.messages,
    };
  });
  const wall = after.Timestamp! - before.Timestamp!;
  const share = (name: string) => ((after[name] ?? 0) - (before[name] ?? 0)) / wall;
  return {
    ...inPage,
    cpu: mainThreadCpuMs(trace.traceEvents) / 1000 / wall,
    busy: {
      task: share('TaskDuration'),
      script: share('ScriptDuration'),
      style: share('RecalcStyleDuration'),
      layout: share('LayoutDuration'),
    },
  };
}

/** JS heap in use after two full collections, bytes. */
export async function heapUsed(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  return (await counters(cdp)).JSHeapUsedSize ?? Number.NaN;
}
