/** How a number is shown: `value_type`, abbreviation and rounding of the original product. */
export interface NumberFormat {
  value_type?: string;
  abbreviate?: boolean;
  rounding?: number;
}

const formatters = new Map<string, Intl.NumberFormat>();

/** One formatter per combination, made once: formatValue runs for every label of every redraw. */
function formatter(
  currency: string | null,
  minDigits: number,
  maxDigits: number,
  compact: boolean,
): Intl.NumberFormat {
  const key = `${currency}|${minDigits}|${maxDigits}|${compact}`;
  let cached = formatters.get(key);
  if (!cached) {
    cached = new Intl.NumberFormat('en-US', {
      ...(currency ? { style: 'currency' as const, currency } : {}),
      minimumFractionDigits: minDigits,
      maximumFractionDigits: maxDigits,
      ...(compact ? { notation: 'compact' as const, compactDisplay: 'short' as const } : {}),
    });
    formatters.set(key, cached);
  }
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
  return `${value < 0 ? '-' : ''}${formatter(null, 0, digits, false).format(scaled)} ${BYTE_UNITS[unit]}`;
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
 * Formats a value: `percent` (42 → "42%"), `currency`/`dollars`/`euros`/`pounds` (or singular), `bytes`,
 * `duration`/`seconds`, or plain; `abbreviate` gives "1.2K", "3.4M"; `rounding` is the number
 * of decimals (default: up to 2). Strings pass through untouched.
 */
export function formatValue(value: number | string | null | undefined, format: NumberFormat = {}): string {
  if (value === null || value === undefined) return '–';
  if (typeof value === 'string') return value;
  if (!Number.isFinite(value)) return '–';
  const digits = format.rounding ?? 2;
  const number = (currency: string | null) =>
    formatter(currency, format.rounding ?? 0, digits, format.abbreviate === true).format(value);
  switch (format.value_type) {
    case 'percent':
    case 'percentage':
      return `${number(null)}%`;
    case 'currency':
    case 'dollars':
    case 'dollar':
      return number('USD');
    case 'euros':
    case 'euro':
      return number('EUR');
    case 'pounds':
    case 'pound':
      return number('GBP');
    case 'bytes':
      return formatBytes(value, digits);
    case 'duration':
    case 'seconds':
      return formatDuration(value);
    default:
      return number(null);
  }
}
