import type { ReactNode } from 'react';
import type { ScreenSync } from '../../../src/shared/sync';
import { StageSize, useStageSize, type Size } from '../screen/stage';

type Wall = NonNullable<ScreenSync['wall']>;

/**
 * Where this screen's picture lies in the wall's whole one, in this screen's pixels: the whole is
 * `columns` screens wide plus the bezel bands between them (hidden behind the bezels), and this
 * screen shows the region at its cell.
 */
export function wallRegion(wall: Wall, screen: Size): { whole: Size; left: number; top: number } {
  const stepX = screen.width * (1 + wall.gap_x);
  const stepY = screen.height * (1 + wall.gap_y);
  return {
    whole: {
      width: screen.width * wall.columns + screen.width * wall.gap_x * (wall.columns - 1),
      height: screen.height * wall.rows + screen.height * wall.gap_y * (wall.rows - 1),
    },
    left: -wall.column * stepX,
    top: -wall.row * stepY,
  };
}

/**
 * Draws an item at the whole wall's size, moved so this screen shows its cell's region (the layer
 * around it hides the rest): boards lay themselves out for the whole (FitScreen reads the stage's
 * size), images and videos fill it.
 */
export function WallRegion({ wall, children }: { wall: Wall; children: ReactNode }) {
  const { whole, left, top } = wallRegion(wall, useStageSize());
  return (
    <div
      className="wall-region"
      data-testid="wall-region"
      style={{
        position: 'absolute',
        left: 0,
        top: 0,
        width: whole.width,
        height: whole.height,
        transform: `translate(${left}px, ${top}px)`,
      }}
    >
      <StageSize size={whole}>{children}</StageSize>
    </div>
  );
}
