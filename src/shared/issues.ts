import type { z } from 'zod';

/** One invalid field, named by its dotted path ("widgets.2.column"). */
export interface FieldIssue {
  path: string;
  message: string;
}

export function toFieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

/** "title: must be at most 255 characters; duration: ..." for logs and thrown errors. */
export function describeIssues(error: z.ZodError): string {
  return toFieldIssues(error)
    .map(({ path, message }) => (path ? `${path}: ${message}` : message))
    .join('; ');
}
