import { Tooltip } from '@mantine/core';

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const absolute = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Infinity],
];

/** "3 minutes ago" for `iso`, relative to `now`. */
export function ago(iso: string, now = Date.now()): string {
  let amount = (new Date(iso).getTime() - now) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) return relative.format(Math.round(amount), unit);
    amount /= size;
  }
  return absolute.format(new Date(iso));
}

export function formatDate(iso: string): string {
  return absolute.format(new Date(iso));
}

/** A time shown as "3 minutes ago", the exact date on hover and to assistive technology. */
export function TimeAgo({ iso, never = 'never' }: { iso: string | null; never?: string }) {
  if (!iso) return <>{never}</>;
  return (
    <Tooltip label={formatDate(iso)}>
      <time dateTime={iso} title={formatDate(iso)}>
        {ago(iso)}
      </time>
    </Tooltip>
  );
}
