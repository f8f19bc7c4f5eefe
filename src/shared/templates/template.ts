import { z } from 'zod';
import { boardExportSchema } from '../board-export';
import { tagSchema } from '../common';
import { textSchema } from '../limits';
import type { MetricsData } from '../metrics';
import { scriptIntervalSchema } from '../script';
import type { Variant } from '../variants';

/** One widget of a template: its flow's short tag, where it stands (column, row, width, height), its sample data. */
export interface TemplateWidget {
  tag: string;
  variant: Variant;
  at: readonly [column: number, row: number, width: number, height: number];
  data: MetricsData;
}

/**
 * The script a template's board comes with: it feeds the flow `feeds` (a widget's short tag) and
 * is created disabled, so it does nothing until an operator makes it read real data.
 */
export interface TemplateScript {
  /** What it does; the script is named "<board>: <name>". */
  name: string;
  interval: string;
  feeds: string;
  /** The body of the script; it runs without the network and returns sample data. */
  code: string;
}

/**
 * A ready board for a common job. `board` is in the export format, so the import creates it; its
 * flows' tags are short ("uptime") and become the new board's own ("lobby-uptime") on creation.
 */
export interface BoardTemplate {
  id: string;
  name: string;
  description: string;
  board: z.input<typeof boardExportSchema>;
  script: TemplateScript;
}

/** The export of a template's board: its settings and its widgets, stacked in the order given. */
export function templateBoard(
  settings: { name: string; theme: 'dark' | 'light'; display_board_name?: boolean },
  widgets: readonly TemplateWidget[],
): z.input<typeof boardExportSchema> {
  return {
    ...settings,
    columns: 32,
    rows: 20,
    size: [1920, 1080],
    widgets: widgets.map((widget, index) => {
      const [column, row, width, height] = widget.at;
      return {
        flow: { tag: widget.tag, data: widget.data },
        variant: widget.variant,
        column,
        row,
        width,
        height,
        in_board_index: index,
      };
    }),
  };
}

/** What `GET /board-templates` answers of each template: enough to show it and preview its board. */
export const boardTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  board: boardExportSchema,
  script: z.object({ name: z.string(), interval: scriptIntervalSchema, feeds: tagSchema }),
});
export type BoardTemplateSummary = z.infer<typeof boardTemplateSchema>;

/** What `POST /boards/from-template/:template` takes: the new board's name, the template's by default. */
export const fromTemplateSchema = z.strictObject({
  name: textSchema.trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters').optional(),
});
