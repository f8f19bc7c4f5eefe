import { Box } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { BoardExport } from '../../../../src/shared/board-export';
import { BoardView } from '../../../../renderer/src/board/board-view';
import { FlowStore } from '../../../../renderer/src/store/flow-store';
import { ConsoleWidgetWeb } from '../../ui/widget-web';

/** Library media are served on this origin to the signed-in console: each URL is its own. */
function mediaOf(board: BoardExport): Record<string, string> {
  return board.background_url ? { [board.background_url]: board.background_url } : {};
}

/**
 * The board as a screen draws it: the player's own BoardView at the board's native size, scaled
 * down to the frame's width (the aspect ratio kept). The widgets' data comes with the board: the
 * store redraws only the widgets whose data changed. `overlay` draws over the board at the
 * frame's size (the editor's handles), given the scale.
 */
export default function BoardPreview({
  board,
  overlay,
}: {
  board: BoardExport;
  overlay?: (scale: number) => ReactNode;
}) {
  const { ref, width } = useElementSize();
  const store = useMemo(() => new FlowStore(), []);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    store.load({ boards: { preview: board } });
  }, [store, board]);
  const [nativeWidth, nativeHeight] = board.size;
  const scale = width ? width / nativeWidth : 0;
  const media = useMemo(() => mediaOf(board), [board]);
  return (
    <figure style={{ margin: 0 }} aria-label={`Preview of ${board.name} as screens show it`}>
      <Box
        ref={ref}
        data-testid="board-preview"
        data-scale={scale.toFixed(4)}
        style={{
          position: 'relative',
          overflow: 'hidden',
          aspectRatio: `${nativeWidth} / ${nativeHeight}`,
          outline: '1px solid var(--mantine-color-default-border)',
          borderRadius: 'var(--mantine-radius-sm)',
        }}
      >
        {scale > 0 && (
          <div
            style={{
              position: 'absolute',
              left: 0,
              top: 0,
              width: nativeWidth,
              height: nativeHeight,
              transform: `scale(${scale})`,
              transformOrigin: '0 0',
            }}
          >
            <ConsoleWidgetWeb>
              <BoardView board={board} store={store} media={media} onProblem={setProblem} />
            </ConsoleWidgetWeb>
          </div>
        )}
        {scale > 0 && overlay?.(scale)}
      </Box>
      {problem && (
        <Box component="figcaption" c="dimmed" fz="sm" mt={4}>
          {problem}
        </Box>
      )}
    </figure>
  );
}
