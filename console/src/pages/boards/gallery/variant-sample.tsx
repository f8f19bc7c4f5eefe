import { memo, useMemo } from 'react';
import { BOARD_DEFAULTS } from '../../../../../src/shared/board';
import type { BoardExport } from '../../../../../src/shared/board-export';
import { VARIANT_EXAMPLES } from '../../../../../src/shared/variant-examples';
import { THEMES } from '../../../../../src/shared/theme';
import type { Variant } from '../../../../../src/shared/variants';
import { BoardView } from '../../../../../renderer/src/board/board-view';
import { FlowStore } from '../../../../../renderer/src/store/flow-store';
import { ConsoleWidgetWeb } from '../../../ui/widget-web';
import { useWidthOnceSeen } from './width-once-seen';

/**
 * The widget's native box: one column by five rows of a 1920 x 1080 board of 4 x 18 cells, so
 * 480 x 300 pixels with the font of a real 1080p screen.
 */
const BOARD_SIZE: [number, number] = [1920, 1080];
const COLUMNS = 4;
const ROWS = 18;
const SAMPLE_ROWS = 5;
const SAMPLE_WIDTH = BOARD_SIZE[0] / COLUMNS;
const SAMPLE_HEIGHT = (BOARD_SIZE[1] / ROWS) * SAMPLE_ROWS;
/** The player's default theme, whatever the console's: samples look as most screens will. */
const SAMPLE_THEME = 'dark';

/**
 * A 1920 x 1080 board holding only this variant with its example data, at the top left:
 * the widget gets the size, font and margins it would have on a real screen.
 */
function sampleBoard(variant: Variant): BoardExport {
  return {
    ...BOARD_DEFAULTS,
    name: variant,
    theme: SAMPLE_THEME,
    size: BOARD_SIZE,
    columns: COLUMNS,
    rows: ROWS,
    channel_ids: [],
    widgets: [
      {
        flow: { tag: `sample-${variant}`, data: VARIANT_EXAMPLES[variant].example, errored: false },
        variant,
        column: 0,
        row: 0,
        width: 1,
        height: SAMPLE_ROWS,
        in_board_index: 0,
        background: 'default',
      },
    ],
  };
}

const NO_MEDIA: Record<string, string> = {};
/** A sample's data is the variant's own example: a problem with it is the renderer's tests' to find. */
function ignoreProblem(): void {}

/**
 * One variant as a screen draws it: the player's own BoardView with the variant's example data,
 * at its native size scaled down to the box's width. A picture only: hidden from assistive
 * technology (the card around it names the variant), not focusable, deaf to the pointer.
 */
const VariantSample = memo(function VariantSample({ variant }: { variant: Variant }) {
  const [ref, width] = useWidthOnceSeen<HTMLDivElement>();
  const board = useMemo(() => sampleBoard(variant), [variant]);
  const store = useMemo(() => {
    // Loaded before the first drawing, so the sample never flashes "No data yet".
    const flows = new FlowStore();
    flows.load({ boards: { sample: board } });
    return flows;
  }, [board]);
  const scale = width / SAMPLE_WIDTH;
  return (
    <div
      ref={ref}
      className="variant-sample"
      data-variant={variant}
      aria-hidden
      inert
      // The board's backdrop shows while the sample waits to be drawn.
      style={{
        aspectRatio: `${SAMPLE_WIDTH} / ${SAMPLE_HEIGHT}`,
        background: THEMES[SAMPLE_THEME].background,
      }}
    >
      {scale > 0 && (
        <div
          className="variant-sample-screen"
          style={{ width: SAMPLE_WIDTH, height: SAMPLE_HEIGHT, transform: `scale(${scale})` }}
        >
          <ConsoleWidgetWeb>
            <BoardView board={board} store={store} media={NO_MEDIA} onProblem={ignoreProblem} />
          </ConsoleWidgetWeb>
        </div>
      )}
    </div>
  );
});

export default VariantSample;
