import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { Rotation } from '../../../src/shared/schedule';
import './stage.css';

export interface Size {
  width: number;
  height: number;
}

function useViewport(): Size {
  const [size, setSize] = useState(() => ({ width: window.innerWidth, height: window.innerHeight }));
  useEffect(() => {
    const update = () => setSize({ width: window.innerWidth, height: window.innerHeight });
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, []);
  return size;
}

const StageContext = createContext<Size | null>(null);

/** The size content is laid out for: the stage's (the screen turned), else the page's viewport. */
export function useStageSize(): Size {
  const stage = useContext(StageContext);
  const viewport = useViewport();
  return stage ?? viewport;
}

/**
 * The picture as a panel mounted turned shows it the right way up: everything is laid out on a
 * stage of the turned size (a 1920 x 1080 screen at 90 degrees is a 1080 x 1920 stage) and the
 * stage is turned clockwise by `rotation` onto the screen. The stage is a size container, so the
 * faces' container units (cqh, cqw) and `position: fixed` count from it, not from the page.
 */
export function Stage({ rotation, children }: { rotation: Rotation; children: ReactNode }) {
  const viewport = useViewport();
  const { width, height } = viewport;
  const sideways = rotation === 90 || rotation === 270;
  const stage: Size = sideways ? { width: height, height: width } : viewport;
  // Turned about its top-left corner, then moved back onto the screen.
  const transform =
    rotation === 90
      ? `translate(${width}px, 0) rotate(90deg)`
      : rotation === 180
        ? `translate(${width}px, ${height}px) rotate(180deg)`
        : rotation === 270
          ? `translate(0, ${height}px) rotate(270deg)`
          : undefined;
  return (
    <div className="stage-screen">
      <div
        className="stage"
        data-testid="stage"
        data-rotation={rotation}
        style={{ width: stage.width, height: stage.height, transform }}
      >
        <StageContext.Provider value={stage}>{children}</StageContext.Provider>
      </div>
    </div>
  );
}

/** Lays its content out for `size` instead of the screen's: a wall's whole picture (docs/sync.md). */
export function StageSize({ size, children }: { size: Size; children: ReactNode }) {
  return <StageContext.Provider value={size}>{children}</StageContext.Provider>;
}
