import { describe, expect, it, vi } from 'vitest';
import { FlowStore } from './flow-store';

const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

describe('flow store', () => {
  it('tells the listeners of a flow at once in sync mode, and no one else', () => {
    const store = new FlowStore();
    const cpu = vi.fn();
    const mem = vi.fn();
    store.subscribe('cpu', cpu);
    store.subscribe('mem', mem);
    store.set('cpu', { value: 1 });
    expect(cpu).toHaveBeenCalledTimes(1);
    expect(mem).not.toHaveBeenCalled();
    expect(store.get('cpu')).toEqual({ value: 1 });
  });

  it('in frame mode, hands a burst over once per frame with the newest data', async () => {
    const store = new FlowStore({ mode: 'frame', minIntervalMs: 0 });
    const seen: unknown[] = [];
    store.subscribe('cpu', () => seen.push(store.get('cpu')));
    for (let value = 0; value < 50; value++) store.set('cpu', { value });
    expect(seen).toEqual([]);
    await frame();
    await frame();
    expect(seen).toEqual([{ value: 49 }]);
  });

  it('in frame mode, holds the next redraw of a widget until its interval has passed', async () => {
    const store = new FlowStore({ mode: 'frame', minIntervalMs: 60_000 });
    const cpu = vi.fn();
    store.subscribe('cpu', cpu);
    store.set('cpu', { value: 1 });
    await frame();
    store.set('cpu', { value: 2 });
    await frame();
    await frame();
    expect(cpu).toHaveBeenCalledTimes(1);
    // The newest data is there for whoever draws next.
    expect(store.get('cpu')).toEqual({ value: 2 });
  });

  it('in frame mode, spreads many flows over frames, eight at most in one', async () => {
    const store = new FlowStore({ mode: 'frame', minIntervalMs: 0, lateFrameMs: Infinity });
    const perFrame: number[] = [];
    let count = 0;
    for (let i = 0; i < 20; i++) store.subscribe(`f${i}`, () => (count += 1));
    for (let i = 0; i < 20; i++) store.set(`f${i}`, { value: i });
    for (let n = 0; n < 4; n++) {
      await frame();
      perFrame.push(count);
      count = 0;
    }
    expect(Math.max(...perFrame)).toBeLessThanOrEqual(8);
    expect(perFrame.reduce((a, b) => a + b, 0)).toBe(20);
  });

  it('in frame mode, leaves the rest to the next frame once the redraws took the budget', async () => {
    const store = new FlowStore({ mode: 'frame', minIntervalMs: 0, frameBudgetMs: 5, lateFrameMs: Infinity });
    const perFrame: number[] = [];
    let count = 0;
    // Each widget's redraw takes 3 ms: two fit in 5 ms, the third would not.
    const slowRedraw = () => {
      const until = performance.now() + 3;
      while (performance.now() < until);
      count += 1;
    };
    for (let i = 0; i < 6; i++) store.subscribe(`f${i}`, slowRedraw);
    for (let i = 0; i < 6; i++) store.set(`f${i}`, { value: i });
    while (perFrame.reduce((a, b) => a + b, 0) < 6 && perFrame.length < 12) {
      await frame();
      perFrame.push(count);
      count = 0;
    }
    // Two at most (fewer when the machine is slower than the busy wait says), one at least.
    expect(Math.max(...perFrame)).toBeLessThanOrEqual(2);
    expect(Math.min(...perFrame)).toBeGreaterThanOrEqual(1);
    expect(perFrame.reduce((a, b) => a + b, 0)).toBe(6);
  });

  it('in frame mode, after a frame that redrew came late, draws none in the next, then one a frame', async () => {
    const store = new FlowStore({ mode: 'frame', minIntervalMs: 0, frameBudgetMs: 1000, lateFrameMs: 25 });
    const perFrame: number[] = [];
    let count = 0;
    // The first widget's redraw takes 40 ms, so the frame after the one that drew it is late.
    store.subscribe('f0', () => {
      const until = performance.now() + 40;
      while (performance.now() < until);
      count += 1;
    });
    for (let i = 1; i < 12; i++) store.subscribe(`f${i}`, () => (count += 1));
    for (let i = 0; i < 12; i++) store.set(`f${i}`, { value: i });
    while (perFrame.reduce((a, b) => a + b, 0) < 12 && perFrame.length < 20) {
      await frame();
      perFrame.push(count);
      count = 0;
    }
    expect(perFrame.slice(0, 3)).toEqual([8, 0, 1]);
    expect(perFrame.reduce((a, b) => a + b, 0)).toBe(12);
  });

  it('wakes no one for data equal to what the flow has, in either mode', async () => {
    for (const mode of ['sync', 'frame'] as const) {
      const store = new FlowStore({ mode, minIntervalMs: 0 });
      const cpu = vi.fn();
      store.subscribe('cpu', cpu);
      store.set('cpu', { value: 1, series: [1, 2] });
      await frame();
      store.set('cpu', { value: 1, series: [1, 2] });
      await frame();
      expect(cpu).toHaveBeenCalledTimes(1);
      store.set('cpu', { value: 1, series: [1, 3] });
      await frame();
      expect(cpu).toHaveBeenCalledTimes(2);
    }
  });

  it('loads a state without waking flows whose data did not change', () => {
    const store = new FlowStore();
    const cpu = vi.fn();
    store.subscribe('cpu', cpu);
    const board = { widgets: [{ flow: { tag: 'cpu', data: { value: 1 } } }] } as never;
    store.load({ boards: { b: board } });
    store.load({ boards: { b: structuredClone(board) } });
    expect(cpu).toHaveBeenCalledTimes(1);
  });
});
