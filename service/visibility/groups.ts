import { AsyncLocalStorage } from 'node:async_hooks';
import type { Queryable } from '../db/database';
import { foreignContent, type Foreign } from './foreign-content';

interface Kept {
  groups: readonly string[];
  /** What the screens outside them play, read once for the work at the first need. */
  foreign?: Promise<Foreign>;
}

const scope = new AsyncLocalStorage<Kept | undefined>();

/**
 * Runs `work` as a person kept to the screen groups `groups` (src/shared/user.ts): every statement
 * of the store in it sees those groups' screens only, and what hangs from them (group-plugin.ts).
 * Set for each request by the auth hook, and for each notice told to a scoped console.
 */
export function withGroups<T>(groups: readonly string[], work: () => T): T {
  return scope.run({ groups }, work);
}

/** The screen groups the work under way is kept to, or undefined (the whole account). */
export function currentGroups(): readonly string[] | undefined {
  return scope.getStore()?.groups;
}

/**
 * What screens outside the caller's groups play (foreign-content.ts), or null for work kept to no
 * group: content a person kept to some groups reads but does not change, and scripts whose code
 * they do not read. Read through `db` once per request, seeing every group.
 */
export function foreignToCaller(db: Queryable): Promise<Foreign> | null {
  const kept = scope.getStore();
  if (!kept?.groups.length) return null;
  kept.foreign ??= scope.run(undefined, () => foreignContent(db, kept.groups));
  return kept.foreign;
}
