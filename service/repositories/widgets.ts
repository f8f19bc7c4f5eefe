import type { MetricsData } from '../../src/shared/metrics';
import type { Variant } from '../../src/shared/variants';
import { placementOf, type Widget } from '../../src/shared/widget';
import type { Queryable } from '../db/database';
import { flag, fromJson, fromJsonOrNull, toJson } from '../db/dialect';
import type { CustomCode } from '../../src/shared/web-content';
import { newId } from '../ids';
import { currentVisibility } from '../visibility/scope';

type WidgetRow = Omit<Widget, 'code'> & { code: string | null };

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
    background: row.background as Widget['background'],
    code: fromJsonOrNull<CustomCode>(row.code),
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

/** A widget to create; `code` is null unless a custom widget brings its own. */
export type NewWidget = Omit<Widget, 'id' | 'code'> & { code?: CustomCode | null };

const COLUMNS = [
  'id',
  'variant',
  'board_id',
  'flow_id',
  'column',
  'row',
  'width',
  'height',
  'in_board_index',
  'background',
  'code',
] as const;

/** Widgets in drawing order: lowest `in_board_index` first. */
export class WidgetRepository {
  constructor(private readonly db: Queryable) {}

  async listByBoard(boardId: string): Promise<Widget[]> {
    const rows = await this.db.kysely
      .selectFrom('widgets')
      .select(COLUMNS)
      .where('board_id', '=', boardId)
      .orderBy('in_board_index')
      .orderBy('id')
      .execute();
    return rows.map(fromRow);
  }

  /** Every widget of the account, board by board, each in drawing order. */
  async listAll(): Promise<Widget[]> {
    const rows = await this.db.kysely
      .selectFrom('widgets')
      .select(COLUMNS)
      .orderBy('board_id')
      .orderBy('in_board_index')
      .orderBy('id')
      .execute();
    const visible = await currentVisibility(this.db);
    return rows.map(fromRow).filter((widget) => visible.board(widget.board_id));
  }

  /** A widget by its id alone, as the original product's flat `/widgets/:id` routes name it. */
  async find(widgetId: string): Promise<Widget | null> {
    const row = await this.db.kysely
      .selectFrom('widgets')
      .select(COLUMNS)
      .where('id', '=', widgetId)
      .executeTakeFirst();
    return row && (await currentVisibility(this.db)).board(row.board_id) ? fromRow(row) : null;
  }

  async listWithFlows(boardId: string): Promise<WidgetWithFlow[]> {
    const rows = await this.db.kysely
      .selectFrom('widgets as w')
      .innerJoin('flows as f', 'f.id', 'w.flow_id')
      .select(COLUMNS.map((column) => `w.${column}` as const))
      .select([
        'f.tag as flow_tag',
        'f.variant as flow_variant',
        'f.data as flow_data',
        'f.errored as flow_errored',
      ])
      .where('w.board_id', '=', boardId)
      .orderBy('w.in_board_index')
      .orderBy('w.id')
      .execute();
    return rows.map((row) => ({
      ...fromRow(row),
      flow: {
        id: row.flow_id,
        tag: row.flow_tag,
        variant: row.flow_variant,
        data: fromJson<MetricsData>(row.flow_data),
        errored: flag(row.flow_errored),
      },
    }));
  }

  async get(boardId: string, widgetId: string): Promise<Widget | null> {
    const row = await this.db.kysely
      .selectFrom('widgets')
      .select(COLUMNS)
      .where('board_id', '=', boardId)
      .where('id', '=', widgetId)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /** The index that draws over every widget of the board: 0 on an empty board. */
  async nextIndex(boardId: string): Promise<number> {
    const row = await this.db.kysely
      .selectFrom('widgets')
      .select((eb) => eb.fn.max('in_board_index').as('last'))
      .where('board_id', '=', boardId)
      .executeTakeFirst();
    const last = row?.last;
    return last === null || last === undefined ? 0 : Number(last) + 1;
  }

  async create(input: NewWidget): Promise<Widget> {
    const row = await this.db.kysely
      .insertInto('widgets')
      .values({
        id: newId('wid'),
        variant: input.variant,
        board_id: input.board_id,
        flow_id: input.flow_id,
        column: input.column,
        row: input.row,
        width: input.width,
        height: input.height,
        in_board_index: input.in_board_index,
        background: input.background,
        code: input.code ? toJson(input.code) : null,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return fromRow(row);
  }

  /**
   * Writes the placement, flow and variant of a widget (the route merges the patch and checks the
   * grid first).
   */
  async replace(widget: Widget): Promise<Widget | null> {
    const row = await this.db.kysely
      .updateTable('widgets')
      .set({
        ...placementOf(widget),
        flow_id: widget.flow_id,
        variant: widget.variant,
        code: widget.code === null ? null : toJson(widget.code),
      })
      .where('board_id', '=', widget.board_id)
      .where('id', '=', widget.id)
      .returning(COLUMNS)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  async delete(boardId: string, widgetId: string): Promise<boolean> {
    const result = await this.db.kysely
      .deleteFrom('widgets')
      .where('board_id', '=', boardId)
      .where('id', '=', widgetId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
