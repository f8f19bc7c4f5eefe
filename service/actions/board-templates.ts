import type { Board } from '../../src/shared/board';
import { boardImportSchema } from '../../src/shared/board-export';
import type { Script } from '../../src/shared/script';
import { scriptCreateSchema } from '../../src/shared/script';
import type { BoardTemplate } from '../../src/shared/templates/template';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { BoardRepository } from '../repositories/boards';
import { freeTag, slugOf } from '../repositories/tags';
import { deleteBoard, importBoard } from './boards';
import { createScript } from './scripts';

/**
 * The flows of a new board from a template get tags of their own, "<board>-<short tag>", so that a
 * second board from the same template gets new flows rather than sharing the first one's data.
 */
async function freshTags(ctx: ServiceContext, boardName: string, tags: readonly string[]) {
  const given = new Map<string, string>();
  for (const tag of new Set(tags)) {
    given.set(
      tag,
      await freeTag(ctx.db, 'flows', slugOf(`${boardName}-${tag}`, tag), new Set(given.values())),
    );
  }
  return given;
}

/** The stub's first lines: what it feeds, that it is off, and how the other widgets get data. */
function stubHeader(boardName: string, template: BoardTemplate, tags: Map<string, string>): string {
  const fed = tags.get(template.script.feeds);
  const others = template.board.widgets
    .filter((widget) => widget.flow.tag !== template.script.feeds)
    .map((widget) => `//   ${tags.get(widget.flow.tag)} (${widget.variant})`);
  return [
    `// Made with the board "${boardName}" from the template "${template.name}". It is disabled:`,
    '// it runs only when you press "Run now", until you enable it. What it returns becomes the',
    `// data of the flow "${fed}", which a widget of the board shows.`,
    "// The board's other widgets show these flows: feed each with a script of its own, or push",
    '// its data from elsewhere with a token that writes metrics, for example',
    "//   curl -X PUT <service>/flows/<tag>/metrics -H 'Authorization: Bearer <token>' \\",
    '//     -H \'Content-Type: application/json\' -d \'{"title": "Queue", "value": 42}\'',
    ...others,
    '',
  ].join('\n');
}

/**
 * A board made from a template through the import (its widgets, flows and sample data in one
 * transaction), then its script stub, disabled. Should the script be refused (a quota), the board
 * goes again, so that a refusal leaves no board behind.
 */
export async function createFromTemplate(
  ctx: ServiceContext,
  template: BoardTemplate,
  name: string | undefined,
): Promise<{ board: Board; script: Script }> {
  const boardName = name ?? template.name;
  const tags = await freshTags(
    ctx,
    boardName,
    template.board.widgets.map((widget) => widget.flow.tag),
  );
  const board = boardImportSchema.parse({
    ...template.board,
    name: boardName,
    widgets: template.board.widgets.map((widget) => ({
      ...widget,
      flow: { ...widget.flow, tag: tags.get(widget.flow.tag) },
    })),
  });
  const id = await importBoard(ctx, board);
  try {
    const script = await createScript(
      ctx,
      scriptCreateSchema.parse({
        name: `${boardName}: ${template.script.name}`.slice(0, 255),
        code: stubHeader(boardName, template, tags) + template.script.code,
        interval: template.script.interval,
        enabled: false,
        flow_tag: tags.get(template.script.feeds),
      }),
    );
    const created = await new BoardRepository(ctx.db).get(id);
    if (!created) throw notFound(`board ${id}`);
    return { board: created, script };
  } catch (error) {
    await deleteBoard(ctx, id).catch(() => undefined);
    throw error;
  }
}
