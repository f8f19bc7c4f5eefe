import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router';
import type { Device } from '../../../src/shared/device';
import type { Playlist } from '../../../src/shared/playlist';
import { confirmAction } from '../ui/confirm';
import { useCanWrite } from '../session/session';
import { ErrorAlert } from '../ui/error-panel';
import { fieldErrorsOf } from '../ui/form';
import { PageHeader } from '../ui/page-header';
import { WriteButton } from '../ui/write-button';
import { AddItems } from './playlists/add-items';
import { AssignScreens } from './playlists/assign-screens';
import { emptiedScreens, useAssignmentDraft } from './playlists/assignment-draft';
import { AssignmentError, useSavePlaylist } from './playlists/save-playlist';
import { newBoardItem, newMediaItem, newWebItem, usePlaylistDraft, validateItems } from './playlists/draft';
import { ItemList } from './playlists/item-list';
import { useItemLabels } from './playlists/item-labels';
import { LeaveGuard } from '../ui/leave-guard';
import { playlistQuery, screensQuery } from './playlists/queries';
import { Loading } from '../ui/loading';

/** An alert's title in the text's color: Mantine's yellow, orange and red titles on their light backgrounds miss WCAG AA. */
const READABLE_TITLE = { title: { color: 'var(--mantine-color-text)' } };

function Editor({ playlist }: { playlist: Playlist }) {
  const canWrite = useCanWrite();
  const draft = usePlaylistDraft(playlist);
  const labelOf = useItemLabels();
  const screens = useQuery(screensQuery);
  const devices = useMemo(() => screens.data ?? [], [screens.data]);
  const savedTags = useMemo(
    () => devices.filter((screen) => screen.playlist_id === playlist.id).map((screen) => screen.tag),
    [devices, playlist.id],
  );
  const assignment = useAssignmentDraft(savedTags);
  const save = useSavePlaylist(playlist, devices);
  const dirty = draft.dirty || assignment.dirty;
  const emptied = emptiedScreens(draft.items.length, draft.dirty, savedTags, assignment.tags);
  const drop = () => {
    draft.drop();
    assignment.drop();
  };
  const submit = async () => {
    const errors = validateItems(draft.items);
    if (Object.keys(errors).length > 0) return draft.setErrors(errors);
    if (emptied.length > 0 && !(await confirmEmpty(emptied, devices))) return;
    save.mutate(
      { items: draft.dirty ? draft.items : null, ...assignment.changes },
      {
        onSuccess: drop,
        onError: (error) => {
          if (error instanceof AssignmentError) draft.drop();
          else draft.setErrors(fieldErrorsOf(error));
        },
      },
    );
  };
  // What the service or the schema refused that belongs to no one item (too many items, …).
  const general = Object.entries(draft.errors).filter(([path]) => !/^items\.\d+/.test(path));
  return (
    <Stack gap="lg">
      <LeaveGuard what="This playlist" dirty={dirty} />
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
      {dirty && !draft.changedElsewhere && (
        <Alert color="yellow" title="You have unsaved changes" role="status" styles={READABLE_TITLE}>
          <Group justify="space-between" gap="sm">
            <Text size="sm">The screens show the saved playlist, on the saved screens, until you save.</Text>
            <Button size="xs" variant="subtle" onClick={drop}>
              Discard the changes
            </Button>
          </Group>
        </Alert>
      )}
      {emptied.length > 0 && (
        <Alert color="orange" title="This playlist has no items" role="alert" styles={READABLE_TITLE}>
          <Text size="sm">
            Saved like this, {emptied.length} screen(s) show “Waiting for a playlist”. Add items first, or
            save anyway (you will be asked).
          </Text>
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
      <Group justify="flex-end">
        <WriteButton onClick={() => void submit()} loading={save.isPending} disabled={!dirty}>
          Save
        </WriteButton>
      </Group>
      <section aria-labelledby="items-title">
        <Title order={2} size="h4" id="items-title" mb="sm">
          Items ({draft.items.length})
        </Title>
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
        {screens.error && <ErrorAlert error={screens.error} title="The screens could not be listed" />}
        <AssignScreens
          screens={devices}
          value={assignment.tags}
          onChange={assignment.set}
          disabled={save.isPending}
        />
      </section>
    </Stack>
  );
}

/** Asks before a save that leaves screens on a playlist with no items. */
function confirmEmpty(tags: readonly string[], screens: readonly Device[]): Promise<boolean> {
  const online = screens.filter((screen) => tags.includes(screen.tag) && screen.online).length;
  return confirmAction({
    title: 'Save a playlist with no items onto screens?',
    body: `${tags.length} screen(s)${online > 0 ? `, ${online} of them online now,` : ''} will show “Waiting for a playlist” until it has items.`,
    confirm: 'Save anyway',
  });
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
