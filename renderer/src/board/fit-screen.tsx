import { useEffect, useState, type ReactNode } from 'react';
import { fitToScreen } from './layout';

function useViewport(): { width: number; height: number } {
  const [size, setSize] = useState(() => ({ width: window.innerWidth, height: window.innerHeight }));
  useEffect(() => {
    const update = () => setSize({ width: window.innerWidth, height: window.innerHeight });
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, []);
  return size;
}

/** Scales a native-size box to fill the screen without distortion: letterboxed, centred. */
export function FitScreen({
  width,
  height,
  children,
}: {
  width: number;
  height: number;
  children: ReactNode;
}) {
  const viewport = useViewport();
  const { scale, left, top } = fitToScreen({ width, height }, viewport);
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
