import { beforeEach, describe, expect, it } from 'vitest';
import type { BridgeMessage } from '../shared/bridge';
import { MetricsOutbox } from './metrics-outbox';
import { FakeClock } from './testing/fakes';

type Batch = Extract<BridgeMessage, { kind: 'metricsBatch' }>;

let clock: FakeClock;
let sent: { at: number; batch: Batch }[];
let outbox: MetricsOutbox;

beforeEach(() => {
  clock = new FakeClock();
  sent = [];
  outbox = new MetricsOutbox(clock, (message) => sent.push({ at: clock.now(), batch: message as Batch }));
});

/** Every flow as it crossed the bridge: its tag, its value and when. */
const crossings = () =>
  sent.flatMap(({ at, batch }) =>
    batch.flows.map((flow) => ({ at, tag: flow.flow_tag, value: flow.data.value })),
  );

describe('the metrics outbox', () => {
  it('sends a quiet flow within 50 ms, several flows of that moment in one message', async () => {
    outbox.add('cpu', { value: 1 });
    await clock.advance(10);
    outbox.add('mem', { value: 2 });
    await clock.advance(40);
    expect(sent).toEqual([
      {
        at: 50,
        batch: {
          kind: 'metricsBatch',
          flows: [
            { flow_tag: 'cpu', data: { value: 1 } },
            { flow_tag: 'mem', data: { value: 2 } },
          ],
        },
      },
    ]);
  });

  it('at a thousand updates a second over 100 flows, sends each flow every 250 ms with its newest data', async () => {
    // One second: an update every millisecond, flow n % 100 getting value n.
    for (let n = 0; n < 1000; n++) {
      outbox.add(`f${n % 100}`, { value: n });
      await clock.advance(1);
    }
    await clock.advance(1000);
    const all = crossings();
    // The messages and the flows the page takes in, where it took 1,000 messages before.
    expect(sent.length).toBeLessThanOrEqual(40);
    expect(all.length).toBeLessThanOrEqual(500);
    expect(Math.max(...sent.map(({ batch }) => batch.flows.length))).toBeLessThanOrEqual(20);
    for (let flow = 0; flow < 100; flow++) {
      const times = all.filter(({ tag }) => tag === `f${flow}`);
      for (let i = 1; i < times.length; i++)
        expect(times[i]!.at - times[i - 1]!.at).toBeGreaterThanOrEqual(250);
      // Nothing lost that matters: the last crossing carries the flow's last value.
      expect(times.at(-1)!.value).toBe(900 + flow);
    }
  });

  it('drops what waits when a whole state carries it, and sends nothing after', async () => {
    outbox.add('cpu', { value: 1 });
    outbox.clear();
    await clock.advance(1000);
    expect(sent).toEqual([]);
  });
});
