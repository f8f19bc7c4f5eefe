import type { MetricsData } from '../../src/shared/metrics';
import type { Variant } from '../../src/shared/variants';
import type { Widget } from '../../src/shared/widget';
import type { Queryable } from '../db/database';
import { newId } from '../ids';
import { one } from './rows';

type WidgetRow = Widget;

function fromRow(row: WidgetRow): Widget {
  return {
    id: row.id,
    variant: row.variant,
    board_id: row.board_id,
    flow_id: row.flow_id,
    column: row.column,
    row: row.row,
    width: row.width,
    height: row.height,
    in_board_index: row.in_board_index,
    background: row.background,
  };
}

/** What a widget needs of its flow: to resolve it, check its variant, and export it. */
export interface FlowSummary {
  id: string;
  tag: string;
  variant: Variant;
  data: MetricsData;
  errored: boolean;
}

export interface WidgetWithFlow extends Widget {
  flow: FlowSummary;
}

export type NewWidget = Omit<Widget, 'id'>;

const COLUMNS = 'id, variant, board_id, flow_id, "column", "row", width, height, in_board_index, background';

/** Widgets in drawing order: lowest `in_board_index` first. */
export class WidgetRepository {
  constructor(private readonly db: Queryable) {}

  async listByBoard(boardId: string): Promise<Widget[]> {
    const rows = await this.db.query<WidgetRow>(
      `select ${COLUMNS} from widgets where board_id = $1 order by in_board_index, id`,
      [boardId],
    );
    return rows.map(fromRow);
  }

  async listWithFlows(boardId: string): Promise<WidgetWithFlow[]> {
    const rows = await this.db.query<
      WidgetRow & { flow_tag: string; flow_variant: Variant; flow_data: MetricsData; flow_errored: boolean }
    >(
      `select w.id, w.variant, w.board_id, w.flow_id, w."column", w."row", w.width, w.height,
              w.in_board_index, w.background,
              f.tag as flow_tag, f.variant as flow_variant, f.data as flow_data, f.errored as flow_errored
       from widgets w join flows f on f.id = w.flow_id
       where w.board_id = $1 order by w.in_board_index, w.id`,
      [boardId],
    );
    return rows.map((row) => ({
      ...fromRow(row),
      flow: {
        id: row.flow_id,
        tag: row.flow_tag,
        variant: row.flow_variant,
        data: row.flow_data,
        errored: row.flow_errored,
      },
    }));
  }

  async get(boardId: string, widgetId: string): Promise<Widget | null> {
    const rows = await this.db.query<WidgetRow>(
      `select ${COLUMNS} from widgets where board_id = $1 and id = $2`,
      [boardId, widgetId],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** The index that draws over every widget of the board: 0 on an empty board. */
  async nextIndex(boardId: string): Promise<number> {
    const rows = await this.db.query<{ next: number | string }>(
      'select coalesce(max(in_board_index) + 1, 0) as next from widgets where board_id = $1',
      [boardId],
    );
    return Number(one(rows).next);
  }

  async create(input: NewWidget): Promise<Widget> {
    const rows = await this.db.query<WidgetRow>(
      `insert into widgets (${COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       returning ${COLUMNS}`,
      [
        newId('wid'),
        input.variant,
        input.board_id,
        input.flow_id,
        input.column,
        input.row,
        input.width,
        input.height,
        input.in_board_index,
        input.background,
      ],
    );
    return fromRow(one(rows));
  }

  /** Writes the placement of a widget (the route merges the patch and checks the grid first). */
  async replace(widget: Widget): Promise<Widget | null> {
    const rows = await this.db.query<WidgetRow>(
      `update widgets set "column" = $3, "row" = $4, width = $5, height = $6, in_board_index = $7,
         background = $8
       where board_id = $1 and id = $2 returning ${COLUMNS}`,
      [
        widget.board_id,
        widget.id,
        widget.column,
        widget.row,
        widget.width,
        widget.height,
        widget.in_board_index,
        widget.background,
      ],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async delete(boardId: string, widgetId: string): Promise<boolean> {
    const rows = await this.db.query('delete from widgets where board_id = $1 and id = $2 returning id', [
      boardId,
      widgetId,
    ]);
    return rows.length > 0;
  }
}
