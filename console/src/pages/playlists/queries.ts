import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { boardSchema } from '../../../../src/shared/board';
import { deviceSchema } from '../../../../src/shared/device';
import { playlistSchema } from '../../../../src/shared/playlist';
import { api } from '../../api/client';

/** Every playlist (the list page, and the names elsewhere). */
export const playlistsQuery = queryOptions({
  queryKey: ['playlists'],
  queryFn: () => api(z.array(playlistSchema), '/playlists'),
});

export const playlistQuery = (id: string) =>
  queryOptions({
    queryKey: ['playlists', id],
    queryFn: () => api(playlistSchema, `/playlists/${encodeURIComponent(id)}`),
  });

/** The screens, plainly (not the console's status summaries): which playlist each plays. */
export const screensQuery = queryOptions({
  queryKey: ['devices', { plain: true }],
  queryFn: () => api(z.array(deviceSchema), '/devices'),
});

export const boardsQuery = queryOptions({
  queryKey: ['boards', { all: true }],
  queryFn: () => api(z.array(boardSchema), '/boards'),
});
