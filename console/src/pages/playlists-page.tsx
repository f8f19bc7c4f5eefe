import { Anchor, Modal, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  playlistCreateSchema,
  playlistSchema,
  playlistUpdateSchema,
  type Playlist,
} from '../../../src/shared/playlist';
import { api, send } from '../api/client';
import { confirmAction } from '../ui/confirm';
import { ErrorAlert } from '../ui/error-panel';
import { PageHeader } from '../ui/page-header';
import { TimeAgo } from '../ui/time';
import { WriteButton } from '../ui/write-button';
import { playlistsQuery, screensQuery } from './playlists/queries';
import { ListTable } from '../ui/list-table';
import { NameForm } from '../ui/name-form';

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
  const screensOf = (id: string) => screens.data?.filter((screen) => screen.playlist_id === id) ?? [];
  const askDelete = async (playlist: Playlist) => {
    const count = screensOf(playlist.id).length;
    const sure = await confirmAction({
      title: `Delete “${playlist.name}”?`,
      body:
        count > 0
          ? `${count} screen(s) play it: they will have no playlist and show nothing of it.`
          : 'No screen plays it.',
      confirm: 'Delete the playlist',
    });
    if (sure) remove.mutate(playlist.id);
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
      <ListTable
        label="The playlists"
        minWidth={620}
        columns={['Name', 'Items', 'Screens', 'Changed']}
        actions
      >
        {playlists.data?.map((playlist) => {
          const playing = screensOf(playlist.id);
          return (
            <Table.Tr key={playlist.id}>
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
      <Modal
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
      </Modal>
    </>
  );
}
