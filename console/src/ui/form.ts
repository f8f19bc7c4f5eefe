import type { FormErrors } from '@mantine/form';
import type { z } from 'zod';
import { ApiError } from '../api/client';

/**
 * A form's validation by the shared schema the service itself checks, run on what the form will
 * send (`toBody` turns its fields into the request's body: empty optional fields left out), so
 * the console says what the service would, before asking it. Errors go to the field of their path.
 */
export function validateBy<V, S extends z.ZodType>(schema: S, toBody: (values: V) => unknown) {
  return (values: V): FormErrors => {
    const parsed = schema.safeParse(toBody(values));
    if (parsed.success) return {};
    const errors: FormErrors = {};
    for (const issue of parsed.error.issues) {
      const path = issue.path.join('.');
      errors[path] ??= issue.message;
    }
    return errors;
  };
}

/** Puts a refusal's details on the form's fields (the service's messages, where they belong). */
export function fieldErrorsOf(error: unknown): FormErrors {
  if (!(error instanceof ApiError)) return {};
  return Object.fromEntries(
    error.details.filter((d) => d.path).map((d) => [d.path.replace(/^body\./, ''), d.message]),
  );
}
