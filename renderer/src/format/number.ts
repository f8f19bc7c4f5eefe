/** How a number is shown: `value_type`, abbreviation and rounding of the original product. */
export interface NumberFormat {
  value_type?: string;
  abbreviate?: boolean;
  rounding?: number;
}

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = JSON.stringify(options);
  let cached = formatters.get(key);
  if (!cached) formatters.set(key, (cached = new Intl.NumberFormat('en-US', options)));
  return cached;
}

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

function formatBytes(value: number, digits: number): string {
  let unit = 0;
  let scaled = Math.abs(value);
  while (scaled >= 1024 && unit < BYTE_UNITS.length - 1) {
    scaled /= 1024;
    unit += 1;
  }
  return `${value < 0 ? '-' : ''}${formatter({ maximumFractionDigits: digits }).format(scaled)} ${BYTE_UNITS[unit]}`;
}

function formatDuration(seconds: number): string {
  const s = Math.round(Math.abs(seconds));
  const parts = [
    [Math.floor(s / 86400), 'd'],
    [Math.floor((s % 86400) / 3600), 'h'],
    [Math.floor((s % 3600) / 60), 'm'],
    [s % 60, 's'],
  ] as const;
  const shown = parts.filter(([n]) => n > 0).slice(0, 2);
  return `${seconds < 0 ? '-' : ''}${shown.length ? shown.map(([n, u]) => `${n}${u}`).join(' ') : '0s'}`;
}

/**
 * Formats a value: `percent` (42 → "42%"), `currency`/`dollars`/`euros`/`pounds`, `bytes`,
 * `duration`/`seconds`, or plain; `abbreviate` gives "1.2K", "3.4M"; `rounding` is the number
 * of decimals (default: up to 2). Strings pass through untouched.
 */
export function formatValue(value: number | string | null | undefined, format: NumberFormat = {}): string {
  if (value === null || value === undefined) return '–';
  if (typeof value === 'string') return value;
  if (!Number.isFinite(value)) return '–';
  const digits = format.rounding ?? 2;
  const rounding = { minimumFractionDigits: format.rounding ?? 0, maximumFractionDigits: digits };
  const compact = format.abbreviate ? { notation: 'compact' as const, compactDisplay: 'short' as const } : {};
  switch (format.value_type) {
    case 'percent':
    case 'percentage':
      return `${formatter({ ...rounding, ...compact }).format(value)}%`;
    case 'currency':
    case 'dollars':
      return formatter({ style: 'currency', currency: 'USD', ...rounding, ...compact }).format(value);
    case 'euros':
      return formatter({ style: 'currency', currency: 'EUR', ...rounding, ...compact }).format(value);
    case 'pounds':
      return formatter({ style: 'currency', currency: 'GBP', ...rounding, ...compact }).format(value);
    case 'bytes':
      return formatBytes(value, digits);
    case 'duration':
    case 'seconds':
      return formatDuration(value);
    default:
      return formatter({ ...rounding, ...compact }).format(value);
  }
}
