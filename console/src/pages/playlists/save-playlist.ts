import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Device } from '../../../../src/shared/device';
import { playlistSchema, type Playlist } from '../../../../src/shared/playlist';
import { api, send } from '../../api/client';
import { runBulk } from '../../ui/bulk';
import { mediaQuery } from '../media/media-query';
import { toBody, type ItemDraft } from './draft';

export interface PlaylistSave {
  /** The edited items, or null when they are as saved. */
  items: readonly ItemDraft[] | null;
  added: readonly string[];
  removed: readonly string[];
}

/** Screens whose playlist could not be changed; the items (if any) were saved before them. */
export class AssignmentError extends Error {}

const assign = (tag: string, playlistId: string | null) =>
  send(`/devices/${encodeURIComponent(tag)}`, { method: 'PATCH', body: { playlist_id: playlistId } });

/**
 * The playlist page's one Save: the items first (refused as a whole, nothing else is done), then
 * each screen added or taken off, one request each. A screen that cannot be changed is named in
 * the error, and stays in the draft to try again.
 */
export function useSavePlaylist(playlist: Playlist, screens: readonly Device[]) {
  const queries = useQueryClient();
  const nameOf = (tag: string) => {
    const screen = screens.find((candidate) => candidate.tag === tag);
    return screen?.name || tag;
  };
  return useMutation({
    mutationFn: async ({ items, added, removed }: PlaylistSave) => {
      if (items !== null) {
        const saved = await api(playlistSchema, `/playlists/${encodeURIComponent(playlist.id)}`, {
          method: 'PATCH',
          body: toBody(items),
        });
        queries.setQueryData(['playlists', playlist.id], saved);
      }
      const changes = [
        ...added.map((tag) => ({ tag, to: playlist.id })),
        ...removed.map((tag) => ({ tag, to: null })),
      ];
      const outcome = await runBulk(
        changes,
        (change) => nameOf(change.tag),
        (change) => assign(change.tag, change.to),
      );
      if (outcome.failed.length > 0) {
        throw new AssignmentError(
          `${items !== null ? 'The items were saved, but ' : ''}${outcome.failed.length} screen(s) could not be changed: ${outcome.failed
            .map((failure) => `${failure.name} (${failure.reason})`)
            .join('; ')}`,
        );
      }
    },
    onSettled: async () => {
      await Promise.all([
        queries.invalidateQueries({ queryKey: ['playlists'], exact: true }),
        queries.invalidateQueries({ queryKey: ['devices'] }),
        // Where each medium is used has changed with the items.
        queries.invalidateQueries({ queryKey: mediaQuery.queryKey }),
      ]);
    },
  });
}
