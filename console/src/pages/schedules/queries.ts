import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { groupSchema } from '../../../../src/shared/group';
import { screenSettingsSchema } from '../../../../src/shared/screen-settings';
import { api } from '../../api/client';

export const groupPath = (id: string) => `/groups/${encodeURIComponent(id)}`;

export const groupsQuery = queryOptions({
  queryKey: ['groups'],
  queryFn: () => api(z.array(groupSchema), '/groups'),
});

export const groupQuery = (id: string) =>
  queryOptions({ queryKey: ['groups', id], queryFn: () => api(groupSchema, groupPath(id)) });

/** A screen's settings resolved (its own, its group's, the defaults): stale with the screen or its group. */
export const settingsQuery = (tag: string) =>
  queryOptions({
    queryKey: ['devices', tag, 'settings'],
    queryFn: () => api(screenSettingsSchema, `/devices/${encodeURIComponent(tag)}/settings`),
  });
