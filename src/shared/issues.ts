import type { z } from 'zod';

/** One invalid field, named by its dotted path ("widgets.2.column"). */
export interface FieldIssue {
  path: string;
  message: string;
}

const UNKNOWN_FIELD = 'is not a known field';

/** One issue per field; an object with unknown keys gives one issue naming each key. */
export function toFieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...path, key].join('.'), message: UNKNOWN_FIELD }));
    }
    return [{ path: path.join('.'), message: issue.message }];
  });
}

/** "title: must be at most 255 characters; duration: ..." for logs and thrown errors. */
export function describeIssues(error: z.ZodError): string {
  return toFieldIssues(error)
    .map(({ path, message }) => (path ? `${path}: ${message}` : message))
    .join('; ');
}
