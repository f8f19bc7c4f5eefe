import { useQueries, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { boardSchema } from '../../../../src/shared/board';
import { channelSchema } from '../../../../src/shared/channel';
import { flowSchema } from '../../../../src/shared/flow';
import { metricsDataSchema } from '../../../../src/shared/metrics';
import { widgetSchema } from '../../../../src/shared/widget';
import { api } from '../../api/client';

export const flowsQuery = { queryKey: ['flows'], queryFn: () => api(z.array(flowSchema), '/flows') };

/** A flow's current data (`{}` when none yet); stale at every `flows` notice. */
export const metricsQuery = (tag: string) => ({
  queryKey: ['flows', tag, 'metrics'],
  queryFn: () => api(metricsDataSchema, `/flows/${encodeURIComponent(tag)}/metrics`),
});

export function useChannelNames(): ReadonlyMap<string, string> {
  const channels = useQuery({
    queryKey: ['channels'],
    queryFn: () => api(z.array(channelSchema), '/channels'),
  });
  return new Map(channels.data?.map((channel) => [channel.id, channel.name]));
}

/**
 * The boards that show each flow, by flow id: the service has no "boards of a flow" route, so
 * every board's widgets are read (each its own query, kept by the `boards` notice).
 */
export function useBoardsByFlow(): ReadonlyMap<string, string[]> {
  const boards = useQuery({ queryKey: ['boards'], queryFn: () => api(z.array(boardSchema), '/boards') });
  const widgets = useQueries({
    queries: (boards.data ?? []).map((board) => ({
      queryKey: ['boards', board.id, 'widgets'],
      queryFn: () => api(z.array(widgetSchema), `/boards/${encodeURIComponent(board.id)}/widgets`),
    })),
  });
  const byFlow = new Map<string, string[]>();
  boards.data?.forEach((board, index) => {
    for (const widget of widgets[index]?.data ?? []) {
      const names = byFlow.get(widget.flow_id) ?? [];
      if (!names.includes(board.name)) names.push(board.name);
      byFlow.set(widget.flow_id, names);
    }
  });
  return byFlow;
}
