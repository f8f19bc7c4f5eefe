import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { playlistSchema, type Playlist } from '../../../src/shared/playlist';
import { api } from '../api/client';
import { useCanWrite } from '../session/session';
import { ErrorAlert } from '../ui/error-panel';
import { fieldErrorsOf } from '../ui/form';
import { PageHeader } from '../ui/page-header';
import { WriteButton } from '../ui/write-button';
import { mediaQuery } from './media/media-query';
import { AddItems } from './playlists/add-items';
import { AssignScreens } from './playlists/assign-screens';
import {
  newBoardItem,
  newMediaItem,
  newWebItem,
  toBody,
  usePlaylistDraft,
  validateItems,
  type ItemDraft,
} from './playlists/draft';
import { ItemList } from './playlists/item-list';
import { useItemLabels } from './playlists/item-labels';
import { LeaveGuard } from '../ui/leave-guard';
import { playlistQuery } from './playlists/queries';
import { Loading } from '../ui/loading';

/** An alert's title in the text's color: Mantine's yellow, orange and red titles on their light backgrounds miss WCAG AA. */
const READABLE_TITLE = { title: { color: 'var(--mantine-color-text)' } };

function Editor({ playlist }: { playlist: Playlist }) {
  const canWrite = useCanWrite();
  const queries = useQueryClient();
  const draft = usePlaylistDraft(playlist);
  const labelOf = useItemLabels();
  const save = useMutation({
    mutationFn: (items: readonly ItemDraft[]) =>
      api(playlistSchema, `/playlists/${encodeURIComponent(playlist.id)}`, {
        method: 'PATCH',
        body: toBody(items),
      }),
    onSuccess: (saved) => {
      queries.setQueryData(playlistQuery(playlist.id).queryKey, saved);
      void queries.invalidateQueries({ queryKey: ['playlists'], exact: true });
      // Where each medium is used has changed with it.
      void queries.invalidateQueries({ queryKey: mediaQuery.queryKey });
      draft.drop();
    },
    onError: (error) => draft.setErrors(fieldErrorsOf(error)),
  });
  const submit = () => {
    const errors = validateItems(draft.items);
    if (Object.keys(errors).length > 0) return draft.setErrors(errors);
    save.mutate(draft.items);
  };
  // What the service or the schema refused that belongs to no one item (too many items, …).
  const general = Object.entries(draft.errors).filter(([path]) => !/^items\.\d+/.test(path));
  return (
    <Stack gap="lg">
      <LeaveGuard what="This playlist" dirty={draft.dirty} />
      {draft.changedElsewhere && (
        <Alert
          color="orange"
          title="Changed elsewhere while you were editing"
          role="alert"
          styles={READABLE_TITLE}
        >
          <Text size="sm">
            Someone saved this playlist since you started. Your edits are kept: load theirs (losing yours), or
            keep yours (saving replaces theirs).
          </Text>
          <Group mt="sm" gap="sm">
            <Button size="xs" variant="default" onClick={draft.drop}>
              Load their version
            </Button>
            <Button size="xs" variant="default" onClick={draft.keepMine}>
              Keep my edits
            </Button>
          </Group>
        </Alert>
      )}
      {draft.dirty && !draft.changedElsewhere && (
        <Alert color="yellow" title="You have unsaved changes" role="status" styles={READABLE_TITLE}>
          <Group justify="space-between" gap="sm">
            <Text size="sm">The screens show the saved playlist until you save.</Text>
            <Button size="xs" variant="subtle" onClick={draft.drop}>
              Discard the changes
            </Button>
          </Group>
        </Alert>
      )}
      {save.error && <ErrorAlert error={save.error} title="The playlist was not saved" />}
      {general.length > 0 && !save.error && (
        <Alert color="red" title="The playlist cannot be saved as it is" role="alert" styles={READABLE_TITLE}>
          {general.map(([path, message]) => (
            <Text size="sm" key={path}>{`${path}: ${String(message)}`}</Text>
          ))}
        </Alert>
      )}
      <section aria-labelledby="items-title">
        <Group justify="space-between" mb="sm" gap="sm">
          <Title order={2} size="h4" id="items-title">
            Items ({draft.items.length})
          </Title>
          <WriteButton onClick={submit} loading={save.isPending} disabled={!draft.dirty}>
            Save
          </WriteButton>
        </Group>
        {draft.items.length === 0 ? (
          <Text c="dimmed" mb="sm">
            No items yet: the screens that play it show nothing.
          </Text>
        ) : (
          <ItemList
            items={draft.items}
            labelOf={labelOf}
            errors={draft.errors}
            readOnly={!canWrite}
            onChange={draft.change}
          />
        )}
        <Paper mt="sm">
          <AddItems
            onAddBoard={(boardId) =>
              draft.change((items) => [...items, newBoardItem(draft.newKey(), boardId)])
            }
            onAddMedia={(type, url) =>
              draft.change((items) => [...items, newMediaItem(draft.newKey(), type, url)])
            }
            onAddWeb={(page) => draft.change((items) => [...items, newWebItem(draft.newKey(), page)])}
          />
        </Paper>
      </section>
      <section aria-label="Screens">
        <AssignScreens playlistId={playlist.id} />
      </section>
    </Stack>
  );
}

export default function PlaylistPage() {
  const { id = '' } = useParams();
  const playlist = useQuery(playlistQuery(id));
  return (
    <>
      <PageHeader
        title={playlist.data?.name ?? 'Playlist'}
        description={
          <>
            Played in order, then from the start again.{' '}
            <Anchor component={Link} to="/playlists" size="sm" underline="always">
              All playlists
            </Anchor>
          </>
        }
      />
      {playlist.isPending && <Loading label="Loading the playlist" />}
      {playlist.error && <ErrorAlert error={playlist.error} title="The playlist could not be shown" />}
      {playlist.data && <Editor playlist={playlist.data} />}
    </>
  );
}
