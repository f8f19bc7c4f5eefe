/**
 * Reading and writing the data a form edits, immutably: the form changes one field at a time and
 * keeps every other one, those it has no control for included (the schemas let unknown fields
 * through, and the JSON view shows them).
 */
export type Json = unknown;

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `record` with `key` set, or removed when `value` is undefined (an optional field left empty). */
export function withKey(record: unknown, key: string, value: unknown): Record<string, unknown> {
  const { [key]: _old, ...rest } = isRecord(record) ? record : {};
  if (value === undefined) return rest;
  // The key keeps its place when it was there, so the JSON view does not jump.
  return isRecord(record) && key in record
    ? Object.fromEntries(Object.entries(record).map(([name, old]) => [name, name === key ? value : old]))
    : { ...rest, [key]: value };
}

/** `list` with item `index` replaced, or removed when `value` is undefined. */
export function withItem(list: unknown, index: number, value: unknown): unknown[] {
  const items = Array.isArray(list) ? [...(list as unknown[])] : [];
  if (value === undefined) items.splice(index, 1);
  else items[index] = value;
  return items;
}

/** `list` with item `index` moved by `by` places (-1 up, 1 down). */
export function moved(list: unknown[], index: number, by: number): unknown[] {
  const target = index + by;
  if (target < 0 || target >= list.length) return list;
  const items = [...list];
  const [item] = items.splice(index, 1);
  items.splice(target, 0, item);
  return items;
}

/** A line of numbers ("1, 2.5, -3"; an empty place is a gap when gaps are allowed), or null when it is not one. */
export function parseNumbers(text: string, gaps: boolean): (number | null)[] | null {
  if (!text.trim()) return [];
  const parts = text
    .split(/[,;\s]+/)
    .filter((part, index, all) => part !== '' || (gaps && index < all.length - 1));
  const numbers = parts.map((part) => (part === '' || part === 'null' ? null : Number(part)));
  if (numbers.some((number) => number !== null && !Number.isFinite(number))) return null;
  if (!gaps && numbers.includes(null)) return null;
  return numbers;
}

export const formatNumbers = (value: unknown): string =>
  Array.isArray(value) ? value.map((item) => (item === null ? '' : String(item))).join(', ') : '';

/**
 * What was typed where a number or a text goes: a number when it reads as one exactly ("42"), else
 * the text as typed ("42 " on the way to "42 open tickets" keeps its space).
 */
export function numberOrText(text: string): number | string {
  return /^-?\d+(\.\d+)?$/.test(text) && Number.isFinite(Number(text)) ? Number(text) : text;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Unix seconds as a `datetime-local` input's value, in the operator's own time zone. */
export function secondsToLocal(value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '';
  const date = new Date(value * 1000);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` input's value as unix seconds, or undefined when empty or unreadable. */
export function localToSeconds(text: string): number | undefined {
  if (!text) return undefined;
  const time = new Date(text).getTime();
  return Number.isFinite(time) ? Math.round(time / 1000) : undefined;
}
