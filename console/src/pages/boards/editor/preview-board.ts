import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Board } from '../../../../../src/shared/board';
import type { BoardExport } from '../../../../../src/shared/board-export';
import type { Flow } from '../../../../../src/shared/flow';
import type { MetricsData } from '../../../../../src/shared/metrics';
import { flowsQuery, metricsQuery } from '../../flows/flow-queries';
import { boardDataQuery } from '../queries';
import type { Layout } from './draft';

const NO_DATA: MetricsData = {};
/** Stable, so the combined list keeps its identity while no read changes. */
const dataOf = (results: { data?: MetricsData }[]) => results.map((result) => result.data);

/**
 * The flows the layout shows, by id, and each one's data by tag: the board's own export carries
 * the data of the saved widgets' flows in one read (kept live by `flows` notices); flows only
 * the editor's new widgets show are read one by one.
 */
export function useLayoutFlows(boardId: string, layout: Layout) {
  const flows = useQuery(flowsQuery);
  const exported = useQuery(boardDataQuery(boardId));
  const byId = useMemo(() => new Map(flows.data?.map((flow) => [flow.id, flow])), [flows.data]);
  const known = useMemo(
    () => new Map(exported.data?.widgets.map((widget) => [widget.flow.tag, widget.flow.data])),
    [exported.data],
  );
  const missing = useMemo(() => {
    const tags = layout.flatMap((widget) => byId.get(widget.flow_id)?.tag ?? []);
    return [...new Set(tags)].filter((tag) => !known.has(tag));
  }, [layout, byId, known]);
  const extra = useQueries({ queries: missing.map((tag) => metricsQuery(tag)), combine: dataOf });
  const dataByTag = useMemo(() => {
    const all = new Map(known);
    missing.forEach((tag, index) => all.set(tag, extra[index] ?? NO_DATA));
    return all;
  }, [known, missing, extra]);
  return { flows: byId, dataByTag };
}

/** The board as a screen would draw it with the editor's settings and layout. */
export function previewOf(
  board: Board,
  layout: Layout,
  flows: ReadonlyMap<string, Flow>,
  dataByTag: ReadonlyMap<string, MetricsData>,
): BoardExport {
  const { id: _id, created_at: _created, updated_at: _updated, ...settings } = board;
  return {
    ...settings,
    widgets: layout.map((widget, index) => {
      const flow = flows.get(widget.flow_id);
      const tag = flow?.tag ?? widget.flow_id;
      return {
        flow: { tag, data: dataByTag.get(tag) ?? NO_DATA, errored: flow?.errored ?? false },
        variant: widget.variant,
        column: widget.column,
        row: widget.row,
        width: widget.width,
        height: widget.height,
        in_board_index: index,
        background: widget.background,
        code: widget.code,
      };
    }),
  };
}
