import type { DataProblem } from '../data-editor/data-problems';

/** The problems of the data by field path (`bars.0.value`, as the API names fields). */
export type ProblemMap = ReadonlyMap<string, string>;

export function problemMap(problems: readonly DataProblem[]): ProblemMap {
  const map = new Map<string, string>();
  for (const { path, message } of problems) {
    if (path) map.set(path, map.has(path) ? `${map.get(path)}; ${message}` : message);
  }
  return map;
}

export const pathOf = (parent: string, key: string | number) => (parent ? `${parent}.${key}` : String(key));
