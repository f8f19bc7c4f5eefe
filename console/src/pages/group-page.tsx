import { Anchor, Grid, Group, MultiSelect, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { groupSchema, type Group as ScreenGroup } from '../../../src/shared/group';
import { api, send } from '../api/client';
import { useCanWrite } from '../session/session';
import { ErrorAlert } from '../ui/error-panel';
import { ListTable } from '../ui/list-table';
import { tell } from '../ui/notify';
import { PageHeader } from '../ui/page-header';
import { WriteButton } from '../ui/write-button';
import { PlaySettingsForm, type PlaySettings } from './schedules/play-settings';
import { groupPath, groupQuery } from './schedules/queries';
import { devicePath, useOverview, usePlaylists } from './screens/queries';
import { Loading } from '../ui/loading';

const settingsOf = ({ playlist_id, schedule, power, rotation, time_zone }: ScreenGroup): PlaySettings => ({
  playlist_id,
  schedule,
  power,
  rotation,
  time_zone,
});

/** The group's screens, and the others to add to it (a screen is in one group at most). */
function Members({ group }: { group: ScreenGroup }) {
  const canWrite = useCanWrite();
  const screens = useOverview();
  const queries = useQueryClient();
  const [adding, setAdding] = useState<string[]>([]);
  const move = useMutation({
    mutationFn: ({ tags, groupId }: { tags: string[]; groupId: string | null }) =>
      Promise.all(tags.map((tag) => send(devicePath(tag), { method: 'PATCH', body: { group_id: groupId } }))),
    onSuccess: () => setAdding([]),
    onSettled: () => queries.invalidateQueries({ queryKey: ['devices'] }),
  });
  const members = screens.data?.filter((screen) => screen.group_id === group.id) ?? [];
  const others = (screens.data ?? [])
    .filter((screen) => screen.group_id !== group.id)
    .map((screen) => ({
      value: screen.tag,
      label: `${screen.name || screen.tag}${screen.group_id ? ' (in another group)' : ''}`,
    }));
  return (
    <Stack gap="sm">
      {move.error && <ErrorAlert error={move.error} title="The screens were not moved" />}
      <ListTable label="Screens of the group" minWidth={360} columns={['Screen', 'Tag']} actions>
        {members.map((screen) => (
          <Table.Tr key={screen.tag}>
            <Table.Td>
              <Anchor component={Link} to={`/screens/${encodeURIComponent(screen.tag)}`}>
                {screen.name || screen.tag}
              </Anchor>
            </Table.Td>
            <Table.Td>{screen.tag}</Table.Td>
            <Table.Td>
              <WriteButton
                size="compact-sm"
                variant="subtle"
                aria-label={`Take ${screen.name || screen.tag} out of the group`}
                onClick={() => move.mutate({ tags: [screen.tag], groupId: null })}
              >
                Take out
              </WriteButton>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      {members.length === 0 && <Text c="dimmed">No screens in this group yet.</Text>}
      <Group align="flex-end" gap="sm">
        <MultiSelect
          label="Add screens"
          data={others}
          searchable
          value={adding}
          onChange={setAdding}
          disabled={!canWrite}
          style={{ flex: 1 }}
        />
        <WriteButton
          disabled={adding.length === 0}
          loading={move.isPending}
          onClick={() => move.mutate({ tags: adding, groupId: group.id })}
        >
          Add to the group
        </WriteButton>
      </Group>
    </Stack>
  );
}

/** One group (`groups/:id`): its name, what its screens play and how, and its screens. */
export default function GroupPage() {
  const { id = '' } = useParams();
  const group = useQuery(groupQuery(id));
  const playlists = usePlaylists();
  const canWrite = useCanWrite();
  const queries = useQueryClient();
  const save = useMutation({
    mutationFn: (body: Partial<PlaySettings> & { name?: string }) =>
      api(groupSchema, groupPath(id), { method: 'PATCH', body }),
    onSuccess: (saved) => {
      queries.setQueryData(groupQuery(id).queryKey, saved);
      tell(`Group ${saved.name} saved`, 'green');
    },
  });
  if (group.isPending) return <Loading label="Loading the group" />;
  if (group.error) return <ErrorAlert error={group.error} title="The group could not be shown" />;
  return (
    <>
      <PageHeader
        title={`Group ${group.data.name}`}
        description={
          <Anchor component={Link} to="/groups" size="sm" underline="always">
            All groups
          </Anchor>
        }
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Paper withBorder p="md" component="section" aria-labelledby="plays-title">
            <Title order={2} size="h4" id="plays-title" mb="sm">
              What its screens play
            </Title>
            <PlaySettingsForm
              key={group.data.updated_at}
              initial={settingsOf(group.data)}
              playlists={playlists.data ?? []}
              unsetLabel="none"
              onSave={(settings) => save.mutate(settings)}
              saving={save.isPending}
              error={save.error}
              disabled={!canWrite}
            />
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Stack gap="lg">
            <Paper withBorder p="md" component="section" aria-labelledby="name-title">
              <Title order={2} size="h4" id="name-title" mb="sm">
                Name
              </Title>
              <form
                onSubmit={(event) => {
                  event.preventDefault();
                  const name = new FormData(event.currentTarget).get('name');
                  save.mutate({ name: String(name) });
                }}
              >
                <Group align="flex-end" gap="sm">
                  <TextInput
                    name="name"
                    label="Name"
                    defaultValue={group.data.name}
                    disabled={!canWrite}
                    style={{ flex: 1 }}
                  />
                  <WriteButton type="submit" variant="default">
                    Rename
                  </WriteButton>
                </Group>
              </form>
            </Paper>
            <Paper withBorder p="md" component="section" aria-labelledby="members-title">
              <Title order={2} size="h4" id="members-title" mb="sm">
                Screens
              </Title>
              <Members group={group.data} />
            </Paper>
          </Stack>
        </Grid.Col>
      </Grid>
    </>
  );
}
