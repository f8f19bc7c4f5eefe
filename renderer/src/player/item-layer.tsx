import { useEffect, useMemo, type ReactNode } from 'react';
import type { WallboardBridge } from '../../../src/shared/bridge';
import { BoardView } from '../board/board-view';
import { FitScreen } from '../board/fit-screen';
import type { FlowStore } from '../store/flow-store';
import { ItemBoundary } from './item-boundary';
import { ImageItem, VideoItem } from './media-items';
import { describeView, type ItemView } from './resolve-item';
import type { Sequencer } from './sequencer';
import type { Slot } from './slot';
import type { ScreenSync } from '../../../src/shared/sync';
import type { SharedTime } from './shared-clock';
import { WallRegion } from './wall-region';
import { WebItem } from './web-item';

type BoardItemView = Extract<ItemView, { kind: 'board' }>;

const FRAME_FALLBACK_MS = 1000;

/**
 * Ready one animation frame after mounting: by then every widget has drawn, including those that
 * draw in a second pass. A page whose frames have stopped (hidden, minimised) shows nothing, so
 * a late frame is no reason to hold the board back: a timer stands in for it.
 */
function BoardItem({
  view,
  store,
  media,
  onProblem,
  onReady,
}: {
  view: BoardItemView;
  store: FlowStore;
  media: Record<string, string>;
  onProblem: (message: string) => void;
  onReady: () => void;
}) {
  useEffect(() => {
    const frame = requestAnimationFrame(() => onReady());
    const fallback = setTimeout(onReady, FRAME_FALLBACK_MS);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(fallback);
    };
  }, [onReady]);

  return (
    <FitScreen width={view.board.size[0]} height={view.board.size[1]}>
      <BoardView board={view.board} store={store} media={media} onProblem={onProblem} />
    </FitScreen>
  );
}

/** On a wall, the item is drawn at the wall's size and this screen shows its region. */
function OnWall({ wall, children }: { wall: ScreenSync['wall']; children: ReactNode }) {
  return wall ? <WallRegion wall={wall}>{children}</WallRegion> : <>{children}</>;
}

interface ItemLayerProps {
  slot: Slot;
  /** On screen; otherwise prepared, hidden behind the item on screen. */
  active: boolean;
  /**
   * False while something covers the player (an emergency override): the layer stays mounted,
   * but its video pauses (its sound with it) and its web page is not asked of the shell, whose
   * own view would be drawn over the cover.
   */
  playing?: boolean;
  sequencer: Sequencer;
  store: FlowStore;
  media: Record<string, string>;
  log: (level: 'info' | 'warn', message: string) => void;
  /** Web pages ask it whether they can be framed, or have the shell draw them. */
  bridge: WallboardBridge;
  /** In a sync group: its clock (a video follows it) and this screen's cell of its wall. */
  sync?: { clock: SharedTime; wall: ScreenSync['wall'] } | null;
}

/** One playlist item on its own full-screen layer, reporting to the sequencer how it fares. */
export function ItemLayer({
  slot,
  active,
  playing = true,
  sequencer,
  store,
  media,
  log,
  bridge,
  sync = null,
}: ItemLayerProps) {
  const id = slot.id;
  const events = useMemo(
    () => ({
      ready: () => sequencer.ready(id),
      failed: (reason: string) => sequencer.failed(id, reason),
      ended: () => sequencer.ended(id),
      timeLeft: (seconds: number) => sequencer.timeLeft(id, seconds),
      crashed: (error: Error) => sequencer.failed(id, `its view failed (${error.message})`),
      problem: (message: string) => log('warn', message),
      warn: (message: string) => log('warn', message),
    }),
    [sequencer, id, log],
  );
  const view = slot.view;

  return (
    <div
      className={active ? 'player-layer player-layer-active' : 'player-layer player-layer-next'}
      data-testid={active ? 'player-current' : 'player-next'}
      data-showing={describeView(view)}
      aria-hidden={active ? undefined : true}
    >
      <ItemBoundary onError={events.crashed}>
        <OnWall wall={sync?.wall ?? null}>
          {view.kind === 'board' ? (
            <BoardItem
              view={view}
              store={store}
              media={media}
              onProblem={events.problem}
              onReady={events.ready}
            />
          ) : view.kind === 'image' ? (
            <ImageItem view={view} onReady={events.ready} onFailed={events.failed} />
          ) : view.kind === 'web' ? (
            <WebItem view={view} active={active && playing} bridge={bridge} onReady={events.ready} />
          ) : (
            <VideoItem
              view={view}
              active={active && playing}
              onReady={events.ready}
              onFailed={events.failed}
              onEnded={events.ended}
              onTimeLeft={events.timeLeft}
              onWarn={events.warn}
              sync={
                sync && slot.turnStart !== undefined ? { clock: sync.clock, turnStart: slot.turnStart } : null
              }
            />
          )}
        </OnWall>
      </ItemBoundary>
    </div>
  );
}
