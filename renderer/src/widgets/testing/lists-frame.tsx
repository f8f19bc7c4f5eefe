import type { BoardExport } from '../../../../src/shared/board-export';
import type { MetricsData, VariantMetrics } from '../../../../src/shared/metrics';
import { THEMES } from '../../../../src/shared/theme';
import type { Variant } from '../../../../src/shared/variants';
import { WidgetFrame } from '../../board/widget-frame';
import { FlowStore } from '../../store/flow-store';
import type { WidgetProps } from '../types';
import '../lists.css';

export const TEST_THEME = THEMES.dark;
export const TEST_FONT_SIZE = 20;

/** A media cache where nothing is cached yet. */
export const nothingCached = (): string | undefined => undefined;

/** Props for a widget rendered on its own, outside the frame. */
export function listsProps<V extends Variant>(
  data: VariantMetrics[V],
  overrides: Partial<Omit<WidgetProps<V>, 'data'>> = {},
): WidgetProps<V> {
  return {
    data,
    width: 400,
    height: 240,
    theme: TEST_THEME,
    fontSize: TEST_FONT_SIZE,
    media: nothingCached,
    ...overrides,
  };
}

interface FramedOptions {
  width?: number;
  height?: number;
  media?: (url: string) => string | undefined;
  onProblem?: (message: string) => void;
}

/**
 * A widget through the real frame and registry, as the board shows it: `data` of undefined
 * leaves the flow without data. The store is built here so each call is a fresh board.
 */
export function framed(variant: Variant, data: unknown, options: FramedOptions = {}) {
  const store = new FlowStore();
  if (data !== undefined) store.set('flow', data as MetricsData);
  const widget: BoardExport['widgets'][number] = {
    flow: { tag: 'flow', data: {}, errored: false },
    variant,
    column: 0,
    row: 0,
    width: 4,
    height: 3,
    in_board_index: 0,
    background: 'default',
  };
  const width = options.width ?? 400;
  const height = options.height ?? 260;
  return (
    <div style={{ position: 'relative', width, height, fontSize: TEST_FONT_SIZE }}>
      <WidgetFrame
        widget={widget}
        box={{ left: 0, top: 0, width, height }}
        padding={8}
        theme={TEST_THEME}
        fontSize={TEST_FONT_SIZE}
        titleFontSize={TEST_FONT_SIZE}
        widgetColor={null}
        titleColor={null}
        store={store}
        media={options.media ?? nothingCached}
        onProblem={options.onProblem ?? (() => undefined)}
      />
    </div>
  );
}
