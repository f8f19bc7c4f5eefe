import { useEffect, useState } from 'react';

/** Whether `expiresAt` (unix seconds) has passed; the widget redraws by itself when it does. */
export function useExpired(expiresAt: number | undefined, now: () => number = Date.now): boolean {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (expiresAt === undefined) return;
    const remaining = expiresAt * 1000 - now();
    if (remaining <= 0) return;
    // setTimeout holds at most ~24.8 days; a later expiry re-arms when the data next changes.
    const timer = setTimeout(() => setTick((tick) => tick + 1), Math.min(remaining + 1, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [expiresAt, now]);
  return expiresAt !== undefined && expiresAt * 1000 <= now();
}
