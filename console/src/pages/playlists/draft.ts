import type { FormErrors } from '@mantine/form';
import { useMemo, useRef, useState } from 'react';
import { playlistUpdateSchema, type Playlist, type PlaylistItem } from '../../../../src/shared/playlist';
import { validateBy } from '../../ui/form';

/** An item as edited: its duration may be an empty field for a while; the key keeps its row as it moves. */
type Editable<T> = T extends { duration: infer D } ? Omit<T, 'duration'> & { duration: D | '' } : never;
export type ItemDraft = Editable<PlaylistItem> & { key: string };

/** How long a new item stays, until the operator says otherwise. */
const DEFAULT_SECONDS = { board: 15, image: 10 };

export function newBoardItem(key: string, board_id: string): ItemDraft {
  return { key, type: 'board', board_id, channel_id: null, duration: DEFAULT_SECONDS.board };
}

export function newMediaItem(key: string, type: 'image' | 'video', url: string): ItemDraft {
  return type === 'image'
    ? { key, type, url, fit: 'fit', duration: DEFAULT_SECONDS.image }
    : { key, type, url, muted: true, duration: null };
}

export function newWebItem(
  key: string,
  page: { url: string; duration: number; reload_seconds: number | null },
): ItemDraft {
  return { key, type: 'web', ...page };
}

/** The PATCH body of the edited items; an empty duration stays wrong (NaN) for the schema to say so. */
export function toBody(items: readonly ItemDraft[]): { items: unknown[] } {
  return {
    items: items.map(({ key: _key, ...item }) => ({
      ...item,
      duration: item.duration === '' ? Number.NaN : item.duration,
    })),
  };
}

export const validateItems = validateBy(playlistUpdateSchema, toBody);

/** Keys derived from the version, so the rows keep their identity until it changes. */
const draftsOf = (playlist: Playlist): ItemDraft[] =>
  playlist.items.map((item, index) => ({ ...item, key: `${playlist.updated_at}:${index}` }));

interface Edits {
  /** The version the edits started from (or, after "keep mine", the newer one acknowledged). */
  base: Playlist;
  items: ItemDraft[];
}

/**
 * The items of a playlist being edited. Until the first change they are the service's, kept live
 * by its notices; after it they are the operator's until saved or dropped, and a newer version
 * saved elsewhere meanwhile is told (`changedElsewhere`) rather than overwriting them.
 */
export function usePlaylistDraft(playlist: Playlist | undefined) {
  const [edits, setEdits] = useState<Edits | null>(null);
  const [errors, setErrors] = useState<FormErrors>({});
  const nextKey = useRef(0);
  const shown = useMemo(() => (playlist ? draftsOf(playlist) : []), [playlist]);
  const items = edits?.items ?? shown;

  const change = (update: (items: ItemDraft[]) => ItemDraft[]) => {
    if (!playlist) return;
    setErrors({});
    setEdits((current) => ({ base: current?.base ?? playlist, items: update(current?.items ?? shown) }));
  };
  return {
    items,
    dirty: edits !== null,
    changedElsewhere:
      edits !== null && playlist !== undefined && playlist.updated_at !== edits.base.updated_at,
    errors,
    setErrors,
    change,
    newKey: () => `new:${nextKey.current++}`,
    /** Back to the service's version, the edits lost (after saving, or when the operator chooses). */
    drop: () => {
      setEdits(null);
      setErrors({});
    },
    /** Keeps the edits over the newer version: saving will replace it. */
    keepMine: () => setEdits((current) => (current && playlist ? { ...current, base: playlist } : current)),
  };
}
