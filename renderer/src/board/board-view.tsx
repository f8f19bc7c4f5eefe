import './board.css';
import { useCallback, useMemo } from 'react';
import type { BoardExport } from '../../../src/shared/board-export';
import { THEMES, type ThemeTokens } from '../../../src/shared/theme';
import type { FlowStore } from '../store/flow-store';
import { boardGeometry, widgetBox } from './layout';
import { WidgetFrame } from './widget-frame';

interface BoardViewProps {
  board: BoardExport;
  store: FlowStore;
  /** Remote media URL to the URL it is cached at. */
  media: Record<string, string>;
  onProblem: (message: string) => void;
}

function themeOf(board: BoardExport): ThemeTokens {
  const theme: ThemeTokens = THEMES[board.theme];
  return board.font_family === 'normal'
    ? theme
    : { ...theme, fontFamily: `"${board.font_family}", ${theme.fontFamily}` };
}

/**
 * A board at its native size: the columns x rows grid with its margins, padding, theme and
 * fonts. The player scales this box to the screen.
 */
export function BoardView({ board, store, media, onProblem }: BoardViewProps) {
  const geometry = useMemo(() => boardGeometry(board), [board]);
  const theme = useMemo(() => themeOf(board), [board]);
  const lookup = useCallback((url: string) => media[url], [media]);
  const backgroundImage = board.background_url ? media[board.background_url] : undefined;

  return (
    <div
      className={`board board-theme-${board.theme}`}
      data-board-name={board.name}
      style={{
        width: geometry.width,
        height: geometry.height,
        fontSize: geometry.fontSize,
        fontFamily: theme.fontFamily,
        color: theme.foreground,
        background: board.background_color ?? theme.background,
        backgroundImage: backgroundImage ? `url("${backgroundImage}")` : undefined,
        ['--wb-accent' as string]: theme.accent,
        ['--wb-muted' as string]: theme.muted,
        ['--wb-good' as string]: theme.good,
        ['--wb-warning' as string]: theme.warning,
        ['--wb-bad' as string]: theme.bad,
      }}
    >
      {geometry.nameBar && (
        <h1 className="board-name" style={{ ...geometry.nameBar, fontSize: geometry.nameBar.height * 0.55 }}>
          {board.name}
        </h1>
      )}
      {board.widgets.map((widget, index) => (
        <WidgetFrame
          key={`${index}:${widget.flow.tag}`}
          widget={widget}
          box={widgetBox(geometry, widget, board.widget_margins)}
          padding={board.widget_padding}
          theme={theme}
          fontSize={geometry.fontSize}
          titleFontSize={geometry.titleFontSize}
          widgetColor={board.widget_color}
          titleColor={board.widget_title_color}
          store={store}
          media={lookup}
          onProblem={onProblem}
        />
      ))}
    </div>
  );
}
