import { z } from 'zod';

/** The error body of every non-2xx answer of the service. */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.array(z.object({ path: z.string(), message: z.string() })),
  }),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
