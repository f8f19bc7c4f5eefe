import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Board } from '../../../../../src/shared/board';
import type { BoardExport } from '../../../../../src/shared/board-export';
import type { Flow } from '../../../../../src/shared/flow';
import type { MetricsData } from '../../../../../src/shared/metrics';
import { flowsQuery, metricsQuery } from '../../flows/flow-queries';
import { boardDataQuery } from '../queries';
import type { DraftWidget, Layout } from './draft';

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
    // A new widget's flow does not exist before the save: there is nothing to read.
    const tags = layout.flatMap((widget) =>
      widget.new_flow === undefined ? (byId.get(widget.flow_id)?.tag ?? []) : [],
    );
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

/** The tag a widget's flow goes by: its flow's, or the new flow's the save creates. */
export const tagOf = (widget: DraftWidget, flows: ReadonlyMap<string, Flow>): string =>
  widget.new_flow ?? flows.get(widget.flow_id)?.tag ?? widget.flow_id;

/**
 * The board as a screen would draw it with the editor's settings, layout and data: the data as
 * edited where it fits its variant (`edited`, by tag), as loaded otherwise.
 */
export function previewOf(
  board: Board,
  layout: Layout,
  flows: ReadonlyMap<string, Flow>,
  dataByTag: ReadonlyMap<string, MetricsData>,
  edited: ReadonlyMap<string, MetricsData> = new Map(),
): BoardExport {
  const { id: _id, created_at: _created, updated_at: _updated, ...settings } = board;
  return {
    ...settings,
    widgets: layout.map((widget, index) => {
      const flow = flows.get(widget.flow_id);
      const tag = tagOf(widget, flows);
      const data = edited.get(tag) ?? dataByTag.get(tag) ?? NO_DATA;
      return {
        flow: { tag, data, errored: flow?.errored ?? false },
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
