import { z } from 'zod';
import { idSchema, resourceTypeSchema, tagSchema, timestampSchema } from './common';
import { storableJson } from './limits';
import { variantSchema } from './variants';

/** Parameters of a flow's source (for example a script's settings): a JSON object, stored as it is. */
const parametersSchema = storableJson(z.record(z.string(), z.unknown(), { error: 'must be a JSON object' }));

export const flowSchema = z.object({
  id: idSchema,
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
});
export type FlowCreate = z.infer<typeof flowCreateSchema>;

export const flowUpdateSchema = z.strictObject({
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
