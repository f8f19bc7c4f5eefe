import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who a change is made by, as the audit trail records it: a person signed in (`user`), a token, or
 * the service acting on its own (a CAP feed, a job), with the client's address when there is one.
 */
export interface Actor {
  kind: 'user' | 'token' | 'system';
  /** The user's or token's id; the job's name for `system`. */
  id: string;
  /** The user's login or the token's name, as it was at the time. */
  name: string;
  /** The client's address (the proxy's `X-Forwarded-For` as trusted), or null. */
  address: string | null;
}

const scope = new AsyncLocalStorage<Actor>();

/**
 * Runs `work` as `actor`: every row it changes in an audited table is recorded with them, in the
 * same transaction (service/audit/). Set by the auth hook for each request that may change
 * something; the service's own work outside any request records nothing.
 */
export function withActor<T>(actor: Actor, work: () => T): T {
  return scope.run(actor, work);
}

/** The actor of the work under way, or undefined (nothing it changes is audited). */
export function currentActor(): Actor | undefined {
  return scope.getStore();
}
