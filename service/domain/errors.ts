import type { FieldIssue } from '../../src/shared/issues';

/**
 * What domain code (actions, repositories, scripts, imports) says when it refuses: no HTTP in
 * it. `http/errors.ts` maps each kind to its status and the shared error body, so a route only
 * maps results and never reads a store's error codes.
 */
export type DomainErrorKind = 'invalid' | 'not_found' | 'conflict' | 'unavailable' | 'quota';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly details: FieldIssue[] = [],
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** The input cannot be accepted as it is (400). */
export const invalid = (message: string, details: FieldIssue[] = []) =>
  new DomainError('invalid', message, details);

/** `what` is e.g. "flow weather": the message reads "flow weather not found" (404). */
export const notFound = (what: string) => new DomainError('not_found', `${what} not found`);

/** The input is valid but clashes with what is stored (409). */
export const conflict = (message: string, details: FieldIssue[] = []) =>
  new DomainError('conflict', message, details);

/** The account holds as much of something as its quota lets it (403 quota_exceeded, accounts/quotas.ts). */
export const quotaExceeded = (message: string, details: FieldIssue[] = []) =>
  new DomainError('quota', message, details);

/** The work cannot be done now, for instance while the service stops (503). */
export const unavailable = (message: string) => new DomainError('unavailable', message);
