import { describe, expect, it, vi } from 'vitest';
import { renderHook } from 'vitest-browser-react';
import { BOARD_DEFAULTS } from '../../../../../src/shared/board';
import { held, queryClient, serve } from '../../../testing/hook-kit';
import type { Layout } from './draft';
import { useLayoutFlows } from './preview-board';
import { draftWidget as draft, sampleFlow as flow } from '../../../testing/fixtures';

/** The board's export as the service answers it: the saved widget's flow with its data. */
const exported = (value: number) => ({
  ...BOARD_DEFAULTS,
  name: 'Hall',
  widgets: [
    {
      flow: { tag: 'temp', data: { value } },
      variant: 'value',
      column: 0,
      row: 0,
      width: 4,
      height: 3,
      in_board_index: 0,
    },
  ],
});

const EXPORT = '/boards/board/export';

function service() {
  return serve()
    .on('GET', '/flows', { status: 200, body: [flow('f1', 'temp'), flow('f2', 'hum'), flow('f3', 'wind')] })
    .on('GET', EXPORT, { status: 200, body: exported(21) });
}

async function previewing(layout: Layout) {
  const { queries, wrapper } = queryClient();
  const hook = await renderHook((current: Layout = layout) => useLayoutFlows('board', current), {
    wrapper,
    initialProps: layout,
  });
  return { queries, ...hook };
}

describe("the flows of the editor's layout", () => {
  it("takes the saved widgets' data from the board's export, and reads each flow only new widgets show once", async () => {
    const fake = service().on('GET', '/flows/hum/metrics', { status: 200, body: { value: 60 } });
    const layout = [draft('w1', 'f1', 0), draft('new:1', 'f2', 4), draft('new:2', 'f2', 8)];
    const { result } = await previewing(layout);
    await vi.waitFor(() => expect(result.current.dataByTag.get('hum')).toEqual({ value: 60 }));
    expect(result.current.dataByTag.get('temp')).toEqual({ value: 21 });
    expect(result.current.flows.get('f2')?.tag).toBe('hum');
    expect(fake.count('GET', '/flows/hum/metrics')).toBe(1);
    expect(fake.count('GET', '/flows/temp/metrics')).toBe(0);
    expect(fake.count('GET', '/flows/wind/metrics')).toBe(0);
  });

  it("shows a new widget's flow without data until its data arrives", async () => {
    const answer = held();
    service().on('GET', '/flows/wind/metrics', answer.handler);
    const { result } = await previewing([draft('new:1', 'f3', 0)]);
    await vi.waitFor(() => expect(result.current.dataByTag.get('wind')).toEqual({}));
    answer.release({ status: 200, body: { value: 7 } });
    await vi.waitFor(() => expect(result.current.dataByTag.get('wind')).toEqual({ value: 7 }));
  });

  it("takes new data of the board's flows at a `flows` notice, and keeps its answer while nothing changes", async () => {
    const fake = service();
    const layout = [draft('w1', 'f1', 0)];
    const { result, rerender, queries } = await previewing(layout);
    await vi.waitFor(() => expect(result.current.dataByTag.get('temp')).toEqual({ value: 21 }));
    const before = result.current.dataByTag;
    await rerender(layout);
    expect(result.current.dataByTag).toBe(before);

    fake.on('GET', EXPORT, { status: 200, body: exported(23) });
    await queries.invalidateQueries({ queryKey: ['flows'] });
    await vi.waitFor(() => expect(result.current.dataByTag.get('temp')).toEqual({ value: 23 }));
  });
});
