import { useCallback, useState, type RefCallback } from 'react';

/** Samples start drawing a little before they scroll into view, so they are there when seen. */
const AHEAD = '200px';

/**
 * The box's width, 0 until it first comes near the viewport: 34 samples cost nothing until the
 * operator scrolls to them, and once drawn they stay drawn (scrolling back does not redraw).
 */
export function useWidthOnceSeen<T extends HTMLElement>(): [RefCallback<T>, number] {
  const [width, setWidth] = useState(0);
  const ref = useCallback((node: T | null) => {
    if (!node) return;
    const resize = new ResizeObserver(([entry]) => {
      if (entry) setWidth(entry.contentRect.width);
    });
    const near = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        near.disconnect();
        resize.observe(node);
      },
      { rootMargin: AHEAD },
    );
    near.observe(node);
    return () => {
      near.disconnect();
      resize.disconnect();
    };
  }, []);
  return [ref, width];
}
