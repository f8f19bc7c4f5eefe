import { z } from 'zod';
import { idSchema, resourceTypeSchema, tagSchema, timestampSchema } from './common';
import { storableJson, textSchema } from './limits';
import { metricsDataSchema } from './metrics';
import { variantSchema } from './variants';

/** Parameters of a flow's source (for example a script's settings): a JSON object, stored as it is. */
const parametersSchema = storableJson(z.record(z.string(), z.unknown(), { error: 'must be a JSON object' }));

export const flowSchema = z.object({
  id: idSchema,
  /** The original product's clients write to /flows/{embed_id}/metrics: here it is the id. */
  embed_id: idSchema,
  type: resourceTypeSchema,
  variant: variantSchema,
  tag: tagSchema,
  errored: z.boolean(),
  /** False until the flow is ready: a flow with a source is ready once source and parameters are set. */
  enabled: z.boolean(),
  channel_id: idSchema.nullable(),
  /** Id of what feeds the flow (a script), or null when data is pushed to it. */
  source: idSchema.nullable(),
  parameters: parametersSchema.nullable(),
  created_at: timestampSchema,
});
export type Flow = z.infer<typeof flowSchema>;

export const flowCreateSchema = z.strictObject({
  tag: tagSchema,
  variant: variantSchema,
  type: resourceTypeSchema.default('default'),
  channel_id: idSchema.nullable().optional(),
  source: idSchema.nullable().optional(),
  parameters: parametersSchema.nullable().optional(),
  /** The first metrics, checked against the variant; null for none (the original's Go library). */
  data: metricsDataSchema.nullable().optional(),
  // The original's clients send these; an empty id lets the service choose, as ours always does.
  id: z.literal('', { error: 'must be empty: the service chooses the id' }).optional(),
  embed_id: z.literal('', { error: 'must be empty: the service chooses the embed id' }).optional(),
  // The original's data sources, which have no counterpart here: taken and ignored, so that its
  // clients' flows can be created; never read as our `source` or `parameters`.
  source_provider: textSchema.max(1000).optional(),
  filter: textSchema.max(1000).optional(),
  params: textSchema.max(1000).optional(),
});
export type FlowCreate = z.infer<typeof flowCreateSchema>;

export const flowUpdateSchema = z.strictObject({
  /** The Node client sends the flow's own id: taken when it names the flow patched, and dropped. */
  id: idSchema.optional(),
  tag: tagSchema.optional(),
  channel_id: idSchema.nullable().optional(),
  errored: z.boolean().optional(),
  source: idSchema.nullable().optional(),
  parameters: parametersSchema.nullable().optional(),
});
export type FlowUpdate = z.infer<typeof flowUpdateSchema>;

/** The readiness rule of the interface's section 3, in one place for service and tests. */
export function isFlowReady(flow: Pick<Flow, 'source' | 'parameters'>): boolean {
  return flow.source === null || flow.parameters !== null;
}
