import { boardImportSchema } from '../../src/shared/board-export';
import { playlistCreateSchema } from '../../src/shared/playlist';
import { scriptCreateSchema } from '../../src/shared/script';
import { importBoard } from '../actions/boards';
import { createPlaylist } from '../actions/playlists';
import { createScript } from '../actions/scripts';
import type { ServiceContext } from '../context';
import { DomainError } from '../domain/errors';
import { BoardRepository } from '../repositories/boards';
import { ScriptRepository } from '../repositories/scripts';
import { ANNOUNCER, DEMO_WIDGETS } from './demo-scripts';

export const DEMO_BOARD_NAME = 'Wallboard demo';

/**
 * Seeds the demo for a fresh store: a dark 32 x 20 board showing most widget variants, the
 * scripts that feed its flows (every 5 to 30 s), one that posts a notification to the default
 * channel every two minutes, and a playlist with the board. Null when the store already has a
 * board. It goes through the actions of the routes (board import, script creation), so events
 * are published as for API calls and the scheduler hears of each script: it runs them at once,
 * or when it starts if the app is not ready yet.
 */
export async function seedDemo(ctx: ServiceContext): Promise<{ boardId: string; playlistId: string } | null> {
  if ((await new BoardRepository(ctx.db).list()).length > 0) return null;
  const board = boardImportSchema.parse({
    name: DEMO_BOARD_NAME,
    theme: 'dark',
    columns: 32,
    rows: 20,
    display_board_name: true,
    widgets: DEMO_WIDGETS.map((widget, index) => ({
      flow: { tag: widget.tag, data: widget.data ?? {} },
      variant: widget.variant,
      column: widget.column,
      row: widget.row,
      width: widget.width,
      height: widget.height,
      in_board_index: index,
    })),
  });
  const boardId = await importBoard(ctx, board);

  for (const widget of DEMO_WIDGETS) {
    if (!widget.script) continue;
    try {
      await createScript(ctx, scriptCreateSchema.parse({ ...widget.script, flow_tag: widget.tag }));
    } catch (error) {
      // The flow existed already, fed by a script of an earlier demo: that one goes on feeding it.
      if (!(error instanceof DomainError && error.kind === 'conflict')) throw error;
    }
  }
  const scripts = await new ScriptRepository(ctx.db).list();
  if (!scripts.some((script) => script.name === ANNOUNCER.name)) {
    await createScript(ctx, scriptCreateSchema.parse(ANNOUNCER));
  }

  const playlist = await createPlaylist(
    ctx,
    playlistCreateSchema.parse({
      name: 'Demo',
      items: [{ type: 'board', board_id: boardId, duration: 300 }],
    }),
  );
  return { boardId, playlistId: playlist.id };
}
