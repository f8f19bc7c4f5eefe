// The metric feed of bench/renderer, the same for the board and for the bare page beside it: which
// widget gets which payload as the n-th update, and a pacer that sends updates at a fixed rate.
import type { BenchBoard } from './renderer-board';

export interface Update {
  tag: string;
  /** The payload as JSON text, as it is written to the service or sent to the bare page. */
  json: string;
}

/**
 * The n-th update. 37 is prime to the widget count, so consecutive updates land on different
 * widgets and each widget gets the next of its payloads every round.
 */
export function updateAt(payloads: BenchBoard['payloads'], n: number): Update {
  const widget = payloads[(n * 37) % payloads.length]!;
  return { tag: widget.tag, json: widget.json[Math.floor(n / payloads.length) % widget.json.length]! };
}

export interface Paced {
  sent: number;
  /** Updates not sent at their time because `send` refused them (too many in flight). */
  skipped: number;
  elapsedMs: number;
}

/**
 * Calls `send(n)` for the updates due at `rate` per second over `seconds`, from a 1 ms timer that
 * catches up when it runs late. `send` returns false to refuse an update (it is counted, not retried).
 */
export async function paced(seconds: number, rate: number, send: (n: number) => boolean): Promise<Paced> {
  const start = performance.now();
  const total = Math.round(seconds * rate);
  let due = 0;
  let sent = 0;
  let skipped = 0;
  while (due < total) {
    const now = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000));
    for (; due < now; due++) {
      if (send(due)) sent += 1;
      else skipped += 1;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return { sent, skipped, elapsedMs: performance.now() - start };
}

/**
 * Writes metric updates to the service over HTTP (`PUT /flows/:tag/metrics`, as a sensor or a
 * script does), at most `maxInFlight` at once. Resolves once every write sent is answered.
 */
export async function writeMetrics(
  options: { serviceUrl: string; token: string; payloads: BenchBoard['payloads']; maxInFlight: number },
  seconds: number,
  rate: number,
): Promise<Paced & { failed: number }> {
  let inFlight = 0;
  let failed = 0;
  const writes: Promise<void>[] = [];
  const result = await paced(seconds, rate, (n) => {
    if (inFlight >= options.maxInFlight) return false;
    const update = updateAt(options.payloads, n);
    inFlight += 1;
    writes.push(
      fetch(`${options.serviceUrl}/flows/${update.tag}/metrics`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
        body: update.json,
      })
        .then(async (response) => {
          await response.arrayBuffer();
          if (!response.ok) failed += 1;
        })
        .catch(() => {
          failed += 1;
        })
        .finally(() => {
          inFlight -= 1;
        }),
    );
    return true;
  });
  await Promise.all(writes);
  return { ...result, failed };
}
