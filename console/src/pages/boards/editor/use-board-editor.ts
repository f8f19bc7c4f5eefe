import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type { Board } from '../../../../../src/shared/board';
import { boardContentSchema, type BoardContent } from '../../../../../src/shared/board-content';
import { api, ApiError } from '../../../api/client';
import { contentQuery } from '../queries';
import { metricsQuery } from '../../flows/flow-queries';
import {
  afterDataSave,
  dataOfSave,
  editsInvalid,
  shownEdits,
  type DataEdit,
  type DataEdits,
} from './data-edits';
import {
  bindingEdited,
  bindingProblem,
  BindingsError,
  NO_BINDINGS,
  writeBindings,
  type BindingEdit,
  type BindingEdits,
} from './binding-edits';
import { afterSave, layoutOf, madeFlows, saveOf, type Layout } from './draft';
import { historyOf, record, redo, undo, type History } from './history';
import {
  NO_SOURCES,
  sourceEdited,
  SourcesError,
  writeSources,
  type SourceEdit,
  type SourceEdits,
} from './source-edits';

function mapHistory(history: History<Layout>, change: (layout: Layout) => Layout): History<Layout> {
  return {
    past: history.past.map(change),
    present: change(history.present),
    future: history.future.map(change),
  };
}

const NO_EDITS: DataEdits = new Map();

/**
 * The board being edited, one draft with one Save: the content it was loaded from (`base`, which
 * a save is checked against), the layout with its undo history, the settings form's passing
 * changes and the widgets' data. One save writes them all (`PUT /boards/:id/content`, the flows
 * of new widgets created by it); a board someone else saved meanwhile is refused (409) and the
 * edits stay until the operator loads theirs. While nothing is edited, someone else's save is
 * taken in at once, so an idle editor never goes stale.
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
  /** The widgets' data as edited, by flow key (data-edits.ts). */
  const [edits, setEdits] = useState<DataEdits>(NO_EDITS);
  /** The scripts chosen to feed the widgets' flows ("Fed by"), by flow id (source-edits.ts). */
  const [sources, setSources] = useState<SourceEdits>(NO_SOURCES);
  /** The data sources chosen to feed the widgets' flows, by flow id (binding-edits.ts). */
  const [bindings, setBindings] = useState<BindingEdits>(NO_BINDINGS);
  const dataEdited = shownEdits(history.present, edits).length > 0;
  const dataInvalid =
    editsInvalid(history.present, edits) ||
    [...bindings.values()].some((edit) => bindingProblem(edit) !== null);
  const dirty =
    history.present !== saved ||
    settings !== null ||
    settingsInvalid ||
    dataEdited ||
    sources.size > 0 ||
    bindings.size > 0;
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
    mutationFn: ({ layout }: { layout: Layout; edits: DataEdits }) =>
      api(boardContentSchema, `/boards/${encodeURIComponent(base.board.id)}/content`, {
        method: 'PUT',
        body: { ...saveOf(base, settings, layout), ...dataOfSave(layout, edits) },
      }),
    onSuccess: (content, { layout: sent, edits: sentEdits }) => {
      const update = (layout: Layout) => afterSave(layout, sent, content.widgets);
      const present = update(sent);
      setBase(content);
      setSaved(present);
      // Edits made while the save was under way stay edits.
      setHistory((current) => mapHistory(current, (layout) => (layout === sent ? present : update(layout))));
      setEdits((current) => afterDataSave(current, sentEdits, madeFlows(sent, content.widgets)));
      // The data saved is the flows' data now: shown at once, not after the refetch.
      const written = dataOfSave(sent, sentEdits);
      for (const { tag, data = {} } of [...written.flows, ...written.data]) {
        queries.setQueryData(metricsQuery(tag).queryKey, data);
      }
      queries.setQueryData(contentQuery(content.board.id).queryKey, content);
      void queries.invalidateQueries({ queryKey: ['boards'] });
      void queries.invalidateQueries({ queryKey: ['flows'] });
    },
  });
  // After the board: the scripts feeding its flows. Those that fail stay in the draft.
  const saveSources = useMutation({
    mutationFn: (sent: SourceEdits) => writeSources(sent),
    onSuccess: (_, sent) => setSources((current) => (current === sent ? NO_SOURCES : current)),
    onError: (error) =>
      error instanceof SourcesError &&
      setSources((current) => new Map([...current].filter(([flowId]) => error.failed.includes(flowId)))),
    onSettled: () =>
      Promise.all(['flows', 'scripts'].map((key) => queries.invalidateQueries({ queryKey: [key] }))),
  });
  // After the board too: the flows' data sources. Those that fail stay in the draft.
  const saveBindings = useMutation({
    mutationFn: (sent: BindingEdits) => writeBindings(sent),
    onSuccess: (_, sent) => setBindings((current) => (current === sent ? NO_BINDINGS : current)),
    onError: (error) =>
      error instanceof BindingsError &&
      setBindings((current) => new Map([...current].filter(([flowId]) => error.failed.includes(flowId)))),
    onSettled: () => queries.invalidateQueries({ queryKey: ['data-sources'] }),
  });
  const conflict = save.error instanceof ApiError && save.error.status === 409;

  /** Someone else's save, loaded in place of the edits (which the service refused). */
  const loadTheirs = async () => {
    load(await queries.fetchQuery({ ...contentQuery(base.board.id), staleTime: 0 }));
    setSettings(null);
    setSettingsInvalid(false);
    setEdits(NO_EDITS);
    setSources(NO_SOURCES);
    setBindings(NO_BINDINGS);
    setGeneration((current) => current + 1);
    save.reset();
    saveSources.reset();
    saveBindings.reset();
  };

  /** Records the data typed for a flow; back to what was loaded, it is no edit any more. */
  const editData = useCallback((key: string, edit: Omit<DataEdit, 'from'>, loaded: string | null) => {
    setEdits((current) => {
      const next = new Map(current);
      if (edit.text === loaded) next.delete(key);
      else next.set(key, { ...edit, from: current.get(key)?.from ?? loaded });
      return next;
    });
  }, []);

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
    /** The widgets' data as edited, by flow key, and how an edit is recorded. */
    edits,
    editData,
    /** The scripts chosen to feed flows, and how a choice is recorded. */
    sources,
    editSource: useCallback((edit: SourceEdit) => setSources((current) => sourceEdited(current, edit)), []),
    /** The data sources chosen to feed flows, and how an edit is recorded. */
    bindings,
    editBinding: useCallback(
      (edit: BindingEdit) => setBindings((current) => bindingEdited(current, edit)),
      [],
    ),
    /** Some widget's data fails its check: the board cannot be saved as it is. */
    dataInvalid,
    dirty,
    /** Someone else saved the board since it was loaded here. */
    stale,
    save: () => {
      saveSources.reset();
      saveBindings.reset();
      save.mutate(
        { layout: history.present, edits },
        {
          onSuccess: () => {
            if (sources.size > 0) saveSources.mutate(sources);
            if (bindings.size > 0) saveBindings.mutate(bindings);
          },
        },
      );
    },
    saving: save.isPending || saveSources.isPending || saveBindings.isPending,
    saveError: save.error ?? saveSources.error ?? saveBindings.error,
    conflict,
    loadTheirs,
    generation,
    /** Drops every edit: the layout goes back to the saved one (an undoable step), the settings too. */
    discard: () => {
      setHistory((current) => record(current, saved));
      setSettings(null);
      setSettingsInvalid(false);
      setEdits(NO_EDITS);
      setSources(NO_SOURCES);
      setBindings(NO_BINDINGS);
      setGeneration((current) => current + 1);
      save.reset();
      saveSources.reset();
      saveBindings.reset();
    },
  };
}
export type BoardEditor = ReturnType<typeof useBoardEditor>;
