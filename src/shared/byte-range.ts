export type ByteRange = { start: number; end: number } | 'unsatisfiable' | null;

/**
 * One `bytes=` range of an HTTP Range header (RFC 9110 §14.1.2) for a file of `size` bytes;
 * null means "send the whole file", which the RFC allows for anything not honoured (several
 * ranges, other units, syntax errors). Videos seek with these.
 */
export function parseRange(header: string | null | undefined, size: number): ByteRange {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    return suffix === 0 || size === 0
      ? 'unsatisfiable'
      : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}
