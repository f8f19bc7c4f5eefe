import { z } from 'zod';
import { idSchema, resourceTypeSchema, tagSchema } from './common';
import { textSchema } from './limits';

const channelName = textSchema.trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters');

export const channelSchema = z.object({
  id: idSchema,
  type: resourceTypeSchema,
  name: channelName,
  /** Mutable, human-readable handle; scripts post notifications to a channel by its tag. */
  tag: tagSchema,
  parent_channel_id: idSchema.nullable(),
});
export type Channel = z.infer<typeof channelSchema>;

/** Only virtual channels are created through the API, so a parent is required. */
export const channelCreateSchema = z.strictObject({
  name: channelName,
  parent_channel_id: idSchema,
  tag: tagSchema.optional(),
});
export type ChannelCreate = z.infer<typeof channelCreateSchema>;

export const channelUpdateSchema = z.strictObject({
  name: channelName.optional(),
  tag: tagSchema.optional(),
});
export type ChannelUpdate = z.infer<typeof channelUpdateSchema>;

/** The original product's Node client sends the channel's own id back in an update's body. */
export const channelPatchSchema = channelUpdateSchema.extend({ id: idSchema.optional() });
