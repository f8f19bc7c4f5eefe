import { Anchor, Grid, Group, Paper, Stack, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { groupUpdateSchema, type Group as ScreenGroup } from '../../../src/shared/group';
import { useCanWrite } from '../session/session';
import { DraftStatus } from '../ui/draft-status';
import { ErrorAlert } from '../ui/error-panel';
import { useFieldDraft } from '../ui/field-draft';
import { fieldErrorsOf } from '../ui/form';
import { Loading } from '../ui/loading';
import { tell } from '../ui/notify';
import { PageHeader } from '../ui/page-header';
import { WriteButton } from '../ui/write-button';
import { Members } from './groups/members';
import { groupFieldsOf, MembersError, useSaveGroup } from './groups/save-group';
import { useAssignmentDraft } from './playlists/assignment-draft';
import { PlaySettingsFields, settingsInvalid } from './schedules/play-settings';
import { groupQuery } from './schedules/queries';
import { useOverview, usePlaylists } from './screens/queries';

/**
 * The group's page as one draft (docs/console.md, "One save model"): its name, what its screens
 * play, and which screens are in it, all written by one Save.
 */
function GroupEditor({ group }: { group: ScreenGroup }) {
  const canWrite = useCanWrite();
  const playlists = usePlaylists();
  const screens = useOverview();
  const all = useMemo(() => screens.data ?? [], [screens.data]);
  const savedFields = useMemo(() => groupFieldsOf(group), [group]);
  const fields = useFieldDraft(savedFields);
  const savedMembers = useMemo(
    () => all.filter((screen) => screen.group_id === group.id).map((screen) => screen.tag),
    [all, group.id],
  );
  const members = useAssignmentDraft(savedMembers);
  const save = useSaveGroup(group, (tag) => all.find((screen) => screen.tag === tag)?.name || tag);
  const dirty = fields.dirty || members.dirty;
  const nameError =
    groupUpdateSchema.shape.name.safeParse(fields.values.name).error?.issues[0]?.message ??
    fieldErrorsOf(save.error).name;
  const invalid = nameError !== undefined || settingsInvalid(fields.values);
  const drop = () => {
    fields.drop();
    members.drop();
    save.reset();
  };
  const submit = () =>
    save.mutate(
      { fields: fields.changes, ...members.changes },
      {
        onSuccess: () => {
          fields.drop();
          members.drop();
          tell(`Group ${fields.values.name} saved`, 'green');
        },
        // The group's fields were saved; the screens that failed stay in the draft.
        onError: (error) => error instanceof MembersError && fields.drop(),
      },
    );
  return (
    <Stack gap="lg">
      <DraftStatus
        what="This group"
        dirty={dirty}
        until="Its screens play by the saved settings, and stay in or out of it, until you save."
        onDrop={drop}
        error={save.error}
      />
      <Group justify="flex-end">
        <WriteButton onClick={submit} loading={save.isPending} disabled={!dirty || invalid}>
          Save
        </WriteButton>
      </Group>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Paper withBorder p="md" component="section" aria-labelledby="plays-title">
            <Title order={2} size="h4" id="plays-title" mb="sm">
              What its screens play
            </Title>
            <PlaySettingsFields
              value={fields.values}
              onChange={fields.patch}
              playlists={playlists.data ?? []}
              unsetLabel="none"
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
              <TextInput
                label="Name"
                value={fields.values.name}
                error={nameError}
                disabled={!canWrite}
                onChange={(event) => fields.set('name', event.currentTarget.value)}
              />
            </Paper>
            <Paper withBorder p="md" component="section" aria-labelledby="members-title">
              <Title order={2} size="h4" id="members-title" mb="sm">
                Screens
              </Title>
              {screens.error && <ErrorAlert error={screens.error} title="The screens could not be listed" />}
              <Members screens={all} members={members.tags} onChange={members.set} />
            </Paper>
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

/** One group (`groups/:id`): its name, what its screens play and how, and its screens. */
export default function GroupPage() {
  const { id = '' } = useParams();
  const group = useQuery(groupQuery(id));
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
      <GroupEditor key={id} group={group.data} />
    </>
  );
}
