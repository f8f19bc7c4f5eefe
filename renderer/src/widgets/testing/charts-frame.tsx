import type { ComponentType } from 'react';
import { expect, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { parseMetrics, type MetricsData, type VariantMetrics } from '../../../../src/shared/metrics';
import { THEMES } from '../../../../src/shared/theme';
import type { Variant } from '../../../../src/shared/variants';
import { WidgetFrame } from '../../board/widget-frame';
import { FlowStore, useFlowData } from '../../store/flow-store';
import type { WidgetProps } from '../types';
import '../charts.css';

export const theme = THEMES.dark;
export const SIZE = { width: 480, height: 270 };
export const FONT_SIZE = 20;

const noMedia = () => undefined;

/** Renders a variant component on its own, at SIZE unless told otherwise. */
export function renderWidget<V extends Variant>(
  Component: ComponentType<WidgetProps<V>>,
  data: VariantMetrics[V],
  size: { width: number; height: number } = SIZE,
) {
  return render(<Component data={data} {...size} theme={theme} fontSize={FONT_SIZE} media={noMedia} />);
}

/** Renders a variant through the real WidgetFrame, fed by a FlowStore. */
export async function renderInFrame(variant: Variant, data: MetricsData) {
  const store = new FlowStore();
  store.set('flow', data);
  const problems: string[] = [];
  const screen = await render(
    <WidgetFrame
      widget={{
        flow: { tag: 'flow', data, errored: false },
        variant,
        column: 0,
        row: 0,
        width: 1,
        height: 1,
        in_board_index: 0,
        background: 'default',
      }}
      box={{ left: 0, top: 0, ...SIZE }}
      padding={8}
      theme={theme}
      fontSize={FONT_SIZE}
      titleFontSize={18}
      widgetColor={null}
      titleColor={null}
      store={store}
      media={noMedia}
      onProblem={(message) => problems.push(message)}
    />,
  );
  return { screen, store, problems };
}

/**
 * Renders a variant bound to a FlowStore the way the frame binds it, but without the frame's
 * error boundary, so an update reaches the same component instance (see the report on the
 * frame's remount per update).
 */
export async function renderFromStore<V extends Variant>(
  variant: V,
  Component: ComponentType<WidgetProps<V>>,
  data: VariantMetrics[V],
) {
  const store = new FlowStore();
  store.set('flow', data);
  function Bound() {
    const current = useFlowData(store, 'flow');
    const parsed = parseMetrics(variant, current);
    if (!parsed.success) throw new Error('test data does not fit');
    return (
      <Component
        data={parsed.data as VariantMetrics[V]}
        {...SIZE}
        theme={theme}
        fontSize={FONT_SIZE}
        media={noMedia}
      />
    );
  }
  const screen = await render(<Bound />);
  return { screen, update: (next: VariantMetrics[V]) => store.set('flow', next) };
}

/** The one uPlot canvas in a container. */
export function plotCanvas(container: HTMLElement): HTMLCanvasElement {
  const canvas = container.querySelector<HTMLCanvasElement>('.uplot canvas');
  if (!canvas) throw new Error('no uPlot canvas');
  return canvas;
}

/** uPlot draws on the next microtask; resolves once the canvas has its final size. */
export async function settled(): Promise<void> {
  await new Promise((resolve) => requestAnimationFrame(resolve));
}

/** Records every string drawn on any canvas (uPlot's axis values) while the test runs. */
export function recordCanvasText(): { texts: string[]; restore: () => void } {
  const texts: string[] = [];
  const original = CanvasRenderingContext2D.prototype.fillText;
  const spy = vi.spyOn(CanvasRenderingContext2D.prototype, 'fillText').mockImplementation(function (
    this: CanvasRenderingContext2D,
    text,
    x,
    y,
    maxWidth,
  ) {
    texts.push(text);
    if (maxWidth === undefined) original.call(this, text, x, y);
    else original.call(this, text, x, y, maxWidth);
  });
  return { texts, restore: () => spy.mockRestore() };
}

/**
 * Binds a uPlot variant to a store, writes `next` and checks the redraw happened in place: what
 * `drawn` looks for appears on the canvas, the canvas element is the same one, and unmounting
 * takes the plot out of the page.
 */
export async function expectRedrawInPlace<V extends Variant>(
  variant: V,
  Component: ComponentType<WidgetProps<V>>,
  data: VariantMetrics[V],
  next: VariantMetrics[V],
  drawn: (texts: string[]) => boolean,
): Promise<void> {
  const { screen, update } = await renderFromStore(variant, Component, data);
  await settled();
  const canvas = plotCanvas(screen.container);
  const root = screen.container.querySelector<HTMLElement>('.uplot');
  const host = root?.parentElement;
  if (!root || !host) throw new Error('no uPlot root');
  const recorded = recordCanvasText();
  try {
    update(next);
    await expect.poll(() => drawn(recorded.texts)).toBe(true);
  } finally {
    recorded.restore();
  }
  expect(plotCanvas(screen.container)).toBe(canvas);
  await screen.unmount();
  expect(host.contains(root)).toBe(false);
}

/** Through the real frame: malformed data shows the "does not fit" face, no data the placeholder. */
export async function expectFrameFaces(variant: Variant, malformed: MetricsData): Promise<void> {
  const bad = await renderInFrame(variant, malformed);
  await expect.element(bad.screen.getByText('Data does not fit this widget')).toBeVisible();
  await bad.screen.unmount();
  const empty = await renderInFrame(variant, {});
  await expect.element(empty.screen.getByText('No data yet')).toBeVisible();
}
