import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type { Board } from '../../../../../src/shared/board';
import { boardContentSchema, type BoardContent } from '../../../../../src/shared/board-content';
import { api, ApiError } from '../../../api/client';
import { contentQuery } from '../queries';
import { afterSave, layoutOf, saveOf, type Layout } from './draft';
import { historyOf, record, redo, undo, type History } from './history';

function mapHistory(history: History<Layout>, change: (layout: Layout) => Layout): History<Layout> {
  return {
    past: history.past.map(change),
    present: change(history.present),
    future: history.future.map(change),
  };
}

/**
 * The board being edited: the content it was loaded from (`base`, which a save is checked
 * against), the layout with its undo history, and the settings form's passing changes. One save
 * writes both (`PUT /boards/:id/content`); a board someone else saved meanwhile is refused (409)
 * and the edits stay until the operator loads theirs. While nothing is edited, someone else's
 * save is taken in at once, so an idle editor never goes stale.
 */
export function useBoardEditor(live: BoardContent) {
  const queries = useQueryClient();
  const [base, setBase] = useState(live);
  const [saved, setSaved] = useState(() => layoutOf(live.widgets));
  const [history, setHistory] = useState(() => historyOf(saved));
  const [settings, setSettings] = useState<Partial<Board> | null>(null);
  /** Something typed in the settings fails its checks: the board cannot be saved as it is. */
  const [settingsInvalid, setSettingsInvalid] = useState(false);
  /** Moves on when the settings form must be filled again from `base`: it is made anew. */
  const [generation, setGeneration] = useState(0);
  const dirty = history.present !== saved || settings !== null || settingsInvalid;
  const stale = live.board.updated_at !== base.board.updated_at;

  const load = useCallback((content: BoardContent) => {
    const layout = layoutOf(content.widgets);
    setBase(content);
    setSaved(layout);
    setHistory(historyOf(layout));
  }, []);

  // Taken in while rendering, so the stale copy is never drawn.
  if (stale && !dirty) load(live);

  const save = useMutation({
    mutationFn: (sent: Layout) =>
      api(boardContentSchema, `/boards/${encodeURIComponent(base.board.id)}/content`, {
        method: 'PUT',
        body: saveOf(base, settings, sent),
      }),
    onSuccess: (content, sent) => {
      const update = (layout: Layout) => afterSave(layout, sent, content.widgets);
      const present = update(sent);
      setBase(content);
      setSaved(present);
      // Edits made while the save was under way stay edits.
      setHistory((current) => mapHistory(current, (layout) => (layout === sent ? present : update(layout))));
      queries.setQueryData(contentQuery(content.board.id).queryKey, content);
      void queries.invalidateQueries({ queryKey: ['boards'] });
    },
  });
  const conflict = save.error instanceof ApiError && save.error.status === 409;

  /** Someone else's save, loaded in place of the edits (which the service refused). */
  const loadTheirs = async () => {
    load(await queries.fetchQuery({ ...contentQuery(base.board.id), staleTime: 0 }));
    setSettings(null);
    setSettingsInvalid(false);
    setGeneration((current) => current + 1);
    save.reset();
  };

  return {
    base,
    layout: history.present,
    change: (next: Layout) => setHistory((current) => record(current, next)),
    undo: () => setHistory(undo),
    redo: () => setHistory(redo),
    canUndo: history.past.length > 0,
    canRedo: history.future.length > 0,
    /** The settings form's changes that pass its checks, shown and saved with the layout. */
    settings,
    /** Hears the settings form: its passing changes (null for none), and whether it fails. */
    onSettings: useCallback((update: Partial<Board> | null, invalid: boolean) => {
      setSettings(update);
      setSettingsInvalid(invalid);
    }, []),
    settingsInvalid,
    dirty,
    /** Someone else saved the board since it was loaded here. */
    stale,
    save: () => save.mutate(history.present),
    saving: save.isPending,
    saveError: save.error,
    conflict,
    loadTheirs,
    generation,
    /** Drops every edit: the layout goes back to the saved one (an undoable step), the settings too. */
    discard: () => {
      setHistory((current) => record(current, saved));
      setSettings(null);
      setSettingsInvalid(false);
      setGeneration((current) => current + 1);
      save.reset();
    },
  };
}
export type BoardEditor = ReturnType<typeof useBoardEditor>;
