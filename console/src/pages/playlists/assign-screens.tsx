import { MultiSelect } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deviceSchema } from '../../../../src/shared/device';
import { api } from '../../api/client';
import { useCanWrite } from '../../session/session';
import { ErrorAlert } from '../../ui/error-panel';
import { VIEWER_MESSAGE } from '../../ui/write-button';
import { screensQuery } from './queries';

const setPlaylist = (tag: string, playlistId: string | null) =>
  api(deviceSchema, `/devices/${encodeURIComponent(tag)}`, {
    method: 'PATCH',
    body: { playlist_id: playlistId },
  });

/**
 * The screens that play this playlist, chosen at once (not with the items' Save): a screen added
 * leaves the playlist it played, one removed is left with none.
 */
export function AssignScreens({ playlistId }: { playlistId: string }) {
  const canWrite = useCanWrite();
  const queries = useQueryClient();
  const screens = useQuery(screensQuery);
  const playing =
    screens.data?.filter((screen) => screen.playlist_id === playlistId).map((screen) => screen.tag) ?? [];
  const assign = useMutation({
    mutationFn: async (tags: string[]) => {
      const added = tags.filter((tag) => !playing.includes(tag));
      const removed = playing.filter((tag) => !tags.includes(tag));
      await Promise.all([
        ...added.map((tag) => setPlaylist(tag, playlistId)),
        ...removed.map((tag) => setPlaylist(tag, null)),
      ]);
    },
    onSettled: () => queries.invalidateQueries({ queryKey: ['devices'] }),
  });
  return (
    <>
      {screens.error && <ErrorAlert error={screens.error} title="The screens could not be listed" />}
      {assign.error && <ErrorAlert error={assign.error} title="A screen could not be given the playlist" />}
      <MultiSelect
        label="Screens that play it"
        description={
          canWrite
            ? 'A screen added here stops playing its previous playlist; one removed plays nothing.'
            : VIEWER_MESSAGE
        }
        placeholder={playing.length > 0 ? undefined : canWrite ? 'Pick screens' : 'No screen plays it'}
        searchable
        data={
          screens.data?.map((screen) => ({
            value: screen.tag,
            label: screen.name ? `${screen.name} (${screen.tag})` : screen.tag,
          })) ?? []
        }
        value={playing}
        disabled={!canWrite || assign.isPending}
        onChange={(tags) => assign.mutate(tags)}
        nothingFoundMessage="No such screen"
      />
    </>
  );
}
