import { useMutation, useQueryClient } from '@tanstack/react-query';
import { mediaSchema, type Media, type MediaUsage } from '../../../../src/shared/media';
import { api, ApiError, send } from '../../api/client';
import { confirmAction } from '../../ui/confirm';
import { UsageList } from './usage-list';

const deleteMedia = (id: string, detach: boolean) =>
  send(`/media/${encodeURIComponent(id)}${detach ? '?detach=true' : ''}`, { method: 'DELETE' });

function askDetach(media: Media, usages: readonly MediaUsage[]): Promise<boolean> {
  return confirmAction({
    title: `“${media.name}” is in use`,
    body: <UsageList usages={usages} />,
    confirm: 'Remove it from them and delete',
  });
}

/**
 * Deleting a medium: a plain confirmation when nothing uses it; when something does, the playlists
 * and boards that use it are listed, and deleting takes it out of them (`?detach=true`). Should it
 * have come into use meanwhile (409), the fresh list is asked about the same way.
 */
export function useDeleteMedia() {
  const queries = useQueryClient();
  const remove = useMutation({
    mutationFn: async (media: Media) => {
      if (media.used_by.length > 0) {
        if (await askDetach(media, media.used_by)) await deleteMedia(media.id, true);
        return;
      }
      const sure = await confirmAction({
        title: `Delete “${media.name}”?`,
        body: 'Nothing uses it. Its file is removed from the service.',
        confirm: 'Delete',
      });
      if (!sure) return;
      try {
        await deleteMedia(media.id, false);
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 409)) throw error;
        const fresh = await api(mediaSchema, `/media/${encodeURIComponent(media.id)}`);
        if (await askDetach(fresh, fresh.used_by)) await deleteMedia(media.id, true);
      }
    },
    onSettled: () => queries.invalidateQueries({ queryKey: ['media'] }),
  });
  return remove;
}
