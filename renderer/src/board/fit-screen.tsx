import type { ReactNode } from 'react';
import { useStageSize } from '../screen/stage';
import { fitToScreen } from './layout';

/**
 * Scales a native-size box to fill the screen (the stage: the screen as turned) without
 * distortion: letterboxed, centred.
 */
export function FitScreen({
  width,
  height,
  children,
}: {
  width: number;
  height: number;
  children: ReactNode;
}) {
  const { scale, left, top } = fitToScreen({ width, height }, useStageSize());
  return (
    <div className="letterbox">
      <div
        className="fit-screen"
        data-scale={scale.toFixed(4)}
        style={{ width, height, transform: `translate(${left}px, ${top}px) scale(${scale})` }}
      >
        {children}
      </div>
    </div>
  );
}
