import { METRICS_BATCH_MAX, METRICS_MIN_INTERVAL_MS, type BridgeMessage } from '../shared/bridge';
import type { MetricsData } from '../shared/metrics';
import type { Clock, TimerHandle } from './ports';

/** How long new data waits to be sent with others: under what a person notices on a TV. */
const GATHER_MS = 50;

/**
 * Flows' new data on its way to the renderer. Each crossing of the bridge costs the page an event,
 * a parse and a check, whatever it carries: at a thousand updates a second that was most of a
 * slow display computer's main thread (bench/renderer). So updates are gathered for GATHER_MS and
 * sent in `metricsBatch` messages of METRICS_BATCH_MAX flows at most (the rest GATHER_MS later:
 * 400 flows a second, 100 widgets at their 250 ms), the newest data of a flow winning; a flow sent
 * less than METRICS_MIN_INTERVAL_MS ago waits until then, since its widget would not redraw
 * sooner. A quiet flow's change reaches the screen within GATHER_MS, a busy flow's every 250 ms.
 */
export class MetricsOutbox {
  private readonly waiting = new Map<string, MetricsData>();
  private readonly lastSent = new Map<string, number>();
  private timer: TimerHandle | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly emit: (message: BridgeMessage) => void,
  ) {}

  add(flowTag: string, data: MetricsData): void {
    this.waiting.set(flowTag, data);
    this.schedule(GATHER_MS);
  }

  /** Drops what waits: a whole state is on its way, which carries every flow's newest data. */
  clear(): void {
    this.waiting.clear();
    this.timer?.cancel();
    this.timer = null;
  }

  private schedule(ms: number): void {
    if (this.timer) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.send();
    }, ms);
  }

  private send(): void {
    const now = this.clock.now();
    const flows: { flow_tag: string; data: MetricsData }[] = [];
    let nextDue = Infinity;
    for (const [flowTag, data] of this.waiting) {
      const due = (this.lastSent.get(flowTag) ?? -Infinity) + METRICS_MIN_INTERVAL_MS;
      if (due > now || flows.length === METRICS_BATCH_MAX) {
        nextDue = Math.min(nextDue, due);
        continue;
      }
      flows.push({ flow_tag: flowTag, data });
      this.waiting.delete(flowTag);
      this.lastSent.set(flowTag, now);
    }
    // Flows sent long enough ago are no different from flows never sent: the map stays as small
    // as the flows of the last moment, for a player that runs for months.
    for (const [flowTag, sentAt] of this.lastSent) {
      if (sentAt + METRICS_MIN_INTERVAL_MS <= now && !this.waiting.has(flowTag))
        this.lastSent.delete(flowTag);
    }
    if (flows.length > 0) this.emit({ kind: 'metricsBatch', flows });
    if (this.waiting.size > 0)
      this.schedule(Math.max(GATHER_MS, Math.min(nextDue, now + METRICS_MIN_INTERVAL_MS) - now));
  }
}
