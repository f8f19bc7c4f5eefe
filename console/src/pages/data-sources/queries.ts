import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { dataBindingSchema, dataSourceRunSchema, dataSourceSchema } from '../../../../src/shared/data-source';
import { api } from '../../api/client';

// Every key starts with `data-sources`: the service's one `data-sources` notice (a source, a
// binding or a run changed) refreshes the sources, their runs and the bindings alike.

export const sourcePath = (id: string) => `/data-sources/${encodeURIComponent(id)}`;
export const bindingPath = (id: string) => `/data-bindings/${encodeURIComponent(id)}`;

export const sourcesQuery = queryOptions({
  queryKey: ['data-sources'],
  queryFn: () => api(z.array(dataSourceSchema), '/data-sources'),
});

export const sourceQuery = (id: string) =>
  queryOptions({
    queryKey: ['data-sources', id],
    queryFn: () => api(dataSourceSchema, sourcePath(id)),
  });

export const runsQuery = (id: string) =>
  queryOptions({
    queryKey: ['data-sources', id, 'runs'],
    queryFn: () => api(z.array(dataSourceRunSchema), `${sourcePath(id)}/runs`),
  });

/** Every binding (the board editor finds a flow's among them), or a source's alone. */
export const bindingsQuery = (sourceId?: string) =>
  queryOptions({
    queryKey: ['data-sources', 'bindings', sourceId ?? 'all'],
    queryFn: () =>
      api(
        z.array(dataBindingSchema),
        sourceId === undefined
          ? '/data-bindings'
          : `/data-bindings?source_id=${encodeURIComponent(sourceId)}`,
      ),
  });
