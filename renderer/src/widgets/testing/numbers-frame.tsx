import { expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import type { VariantMetrics } from '../../../../src/shared/metrics';
import { THEMES } from '../../../../src/shared/theme';
import type { Variant } from '../../../../src/shared/variants';
import { WidgetFrame } from '../../board/widget-frame';
import { FlowStore } from '../../store/flow-store';
import type { WidgetProps } from '../types';

export const theme = THEMES.dark;

/** Props for rendering a variant on its own, as the frame would pass them. */
export function widgetProps<V extends Variant>(
  data: VariantMetrics[V],
  size: { width: number; height: number } = { width: 400, height: 300 },
): WidgetProps<V> {
  return { data, ...size, theme, fontSize: 20, media: () => undefined };
}

/** Renders `variant` through the real WidgetFrame, with `data` in its flow (none: no data yet). */
export async function renderInFrame(variant: Variant, data?: Record<string, unknown>) {
  const store = new FlowStore();
  if (data) store.set('flow', data);
  const problems: string[] = [];
  const screen = await render(
    <WidgetFrame
      widget={{
        flow: { tag: 'flow', data: data ?? {}, errored: false },
        variant,
        column: 0,
        row: 0,
        width: 4,
        height: 3,
        in_board_index: 0,
        background: 'default',
      }}
      box={{ left: 0, top: 0, width: 400, height: 300 }}
      padding={8}
      theme={theme}
      fontSize={20}
      titleFontSize={18}
      widgetColor={null}
      titleColor={null}
      store={store}
      media={() => undefined}
      onProblem={(message) => problems.push(message)}
    />,
  );
  return { screen, store, problems };
}

/** The frame's faces every variant must reach: malformed data and no data at all. */
export function itShowsFrameFaces(
  variant: Variant,
  malformed: Record<string, unknown>,
  good: Record<string, unknown>,
) {
  it('shows "Data does not fit this widget" for malformed data', async () => {
    const { screen } = await renderInFrame(variant, malformed);
    await expect.element(screen.getByText('Data does not fit this widget')).toBeVisible();
  });

  it('shows "No data yet" without data', async () => {
    const { screen } = await renderInFrame(variant);
    await expect.element(screen.getByText('No data yet')).toBeVisible();
  });

  it('draws good data through the frame without a failure face', async () => {
    const { screen, problems } = await renderInFrame(variant, { title: 'Through the frame', ...good });
    await expect.element(screen.getByText('Through the frame')).toBeVisible();
    const body = screen.container.querySelector('.widget-body');
    expect(body?.querySelector('.widget-face')).toBeNull();
    expect(body?.children.length).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });
}
