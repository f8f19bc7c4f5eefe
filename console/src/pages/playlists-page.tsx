import { Anchor, Checkbox, Group, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  playlistCreateSchema,
  playlistSchema,
  playlistUpdateSchema,
  type Playlist,
} from '../../../src/shared/playlist';
import { api, send } from '../api/client';
import { allToggled, counted, kept, toggled } from '../ui/bulk';
import { BulkBar, SelectAll, useBulkRun } from '../ui/bulk-bar';
import { confirmAction } from '../ui/confirm';
import { ErrorAlert } from '../ui/error-panel';
import { PageHeader } from '../ui/page-header';
import { TimeAgo } from '../ui/time';
import { WriteButton } from '../ui/write-button';
import { playlistUsage, usageLines } from './playlists/playlist-usage';
import { playlistsQuery, screensQuery } from './playlists/queries';
import { groupsQuery } from './schedules/queries';
import { ListTable } from '../ui/list-table';
import { NameForm } from '../ui/name-form';
import { EditModal } from '../ui/edit-modal';

export default function PlaylistsPage() {
  const playlists = useQuery(playlistsQuery);
  const screens = useQuery(screensQuery);
  const queries = useQueryClient();
  const navigate = useNavigate();
  /** The dialog open: a new playlist (null) or renaming one. */
  const [naming, setNaming] = useState<{ playlist: Playlist | null } | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => send(`/playlists/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    // The media it used are used by one playlist less.
    onSettled: () =>
      Promise.all(['playlists', 'media'].map((key) => queries.invalidateQueries({ queryKey: [key] }))),
  });
  const groups = useQuery(groupsQuery);
  const screensOf = (id: string) => screens.data?.filter((screen) => screen.playlist_id === id) ?? [];
  /** The confirmation of deleting `chosen`: what plays or schedules them loses them. */
  const askDeleteMany = (chosen: readonly Playlist[]) => {
    const lines = usageLines(
      playlistUsage(new Set(chosen.map((p) => p.id)), screens.data ?? [], groups.data ?? []),
    );
    const title =
      chosen.length === 1
        ? `Delete “${chosen[0]?.name ?? ''}”?`
        : `Delete ${counted(chosen.length, 'playlist')}?`;
    return confirmAction({
      title,
      body: (
        <Stack gap="xs">
          {lines.length === 0 ? (
            <Text size="sm">No screen, group or schedule uses {chosen.length === 1 ? 'it' : 'them'}.</Text>
          ) : (
            lines.map((line) => (
              <Text size="sm" key={line}>
                {line}
              </Text>
            ))
          )}
        </Stack>
      ),
      confirm: chosen.length === 1 ? 'Delete the playlist' : `Delete ${counted(chosen.length, 'playlist')}`,
    });
  };
  const askDelete = async (playlist: Playlist) => {
    if (await askDeleteMany([playlist])) remove.mutate(playlist.id);
  };
  // The playlists chosen for a bulk deletion; those gone meanwhile drop out.
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const bulk = useBulkRun();
  const ids = useMemo(() => playlists.data?.map((playlist) => playlist.id) ?? [], [playlists.data]);
  const selected = useMemo(() => {
    const present = kept(chosen, ids);
    return playlists.data?.filter((playlist) => present.has(playlist.id)) ?? [];
  }, [chosen, ids, playlists.data]);
  const deleteSelected = async () => {
    if (!(await askDeleteMany(selected))) return;
    await bulk.run(
      selected,
      (playlist) => playlist.name,
      (playlist) => send(`/playlists/${encodeURIComponent(playlist.id)}`, { method: 'DELETE' }),
      { verb: 'Deleted', noun: 'playlist' },
    );
    setChosen(new Set());
    await Promise.all(
      ['playlists', 'media', 'devices', 'groups'].map((key) =>
        queries.invalidateQueries({ queryKey: [key] }),
      ),
    );
  };
  const saved = (playlist: Playlist) => {
    const created = naming?.playlist === null;
    setNaming(null);
    void queries.invalidateQueries({ queryKey: ['playlists'] });
    if (created) void navigate(`/playlists/${playlist.id}`);
  };
  return (
    <>
      <PageHeader
        title="Playlists"
        description="What screens show, in order and looping: boards, images and videos."
        actions={<WriteButton onClick={() => setNaming({ playlist: null })}>New playlist</WriteButton>}
      />
      {playlists.error && <ErrorAlert error={playlists.error} title="The playlists could not be listed" />}
      {remove.error && <ErrorAlert error={remove.error} />}
      <BulkBar
        count={selected.length}
        noun="playlist"
        onClear={() => setChosen(new Set())}
        bulk={bulk}
        onDelete={() => void deleteSelected()}
      />
      {ids.length > 0 && (
        <Group gap="xs" mb="xs">
          <SelectAll
            label="Select every playlist"
            selection={chosen}
            shown={ids}
            onChange={() => setChosen((current) => allToggled(current, ids))}
          />
          <Text size="sm" c="dimmed" aria-hidden>
            Select all
          </Text>
        </Group>
      )}
      <ListTable
        label="The playlists"
        minWidth={660}
        columns={['Select', 'Name', 'Items', 'Screens', 'Changed']}
        actions
      >
        {playlists.data?.map((playlist) => {
          const playing = screensOf(playlist.id);
          return (
            <Table.Tr key={playlist.id}>
              <Table.Td>
                <Checkbox
                  aria-label={`Select ${playlist.name}`}
                  checked={chosen.has(playlist.id)}
                  onChange={() => setChosen((current) => toggled(current, playlist.id))}
                />
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={`/playlists/${playlist.id}`}>
                  {playlist.name}
                </Anchor>
              </Table.Td>
              <Table.Td>{playlist.items.length}</Table.Td>
              <Table.Td>
                {playing.length === 0 ? (
                  <Text c="dimmed" size="sm">
                    none
                  </Text>
                ) : (
                  playing.map((screen, index) => (
                    <span key={screen.tag}>
                      {index > 0 && ', '}
                      <Anchor component={Link} to={`/screens/${encodeURIComponent(screen.tag)}`} size="sm">
                        {screen.name || screen.tag}
                      </Anchor>
                    </span>
                  ))
                )}
              </Table.Td>
              <Table.Td>
                <TimeAgo iso={playlist.updated_at} />
              </Table.Td>
              <Table.Td>
                <WriteButton
                  size="xs"
                  variant="subtle"
                  onClick={() => setNaming({ playlist })}
                  aria-label={`Rename ${playlist.name}`}
                >
                  Rename
                </WriteButton>
                <WriteButton
                  size="xs"
                  variant="subtle"
                  color="red"
                  onClick={() => void askDelete(playlist)}
                  aria-label={`Delete ${playlist.name}`}
                >
                  Delete
                </WriteButton>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </ListTable>
      {playlists.data?.length === 0 && <Text c="dimmed">No playlists yet.</Text>}
      <EditModal
        opened={naming !== null}
        onClose={() => setNaming(null)}
        title={naming?.playlist ? `Rename “${naming.playlist.name}”` : 'New playlist'}
      >
        {naming && (
          <NameForm
            initial={naming.playlist?.name}
            schema={naming.playlist ? playlistUpdateSchema : playlistCreateSchema}
            save={(body) =>
              naming.playlist
                ? api(playlistSchema, `/playlists/${encodeURIComponent(naming.playlist.id)}`, {
                    method: 'PATCH',
                    body,
                  })
                : api(playlistSchema, '/playlists', { method: 'POST', body })
            }
            submit={naming.playlist ? 'Rename' : 'Create the playlist'}
            onDone={saved}
          />
        )}
      </EditModal>
    </>
  );
}
