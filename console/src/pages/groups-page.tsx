import { Anchor, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { groupCreateSchema, groupSchema, type Group } from '../../../src/shared/group';
import { api, send } from '../api/client';
import { confirmAction } from '../ui/confirm';
import { ErrorAlert } from '../ui/error-panel';
import { ListTable } from '../ui/list-table';
import { NameForm } from '../ui/name-form';
import { PageHeader } from '../ui/page-header';
import { WriteButton } from '../ui/write-button';
import { groupPath, groupsQuery } from './schedules/queries';
import { useOverview } from './screens/queries';
import { EditModal } from '../ui/edit-modal';

/** What a group sets, in words: "schedule, off hours, 90°". */
function summary(group: Group): string {
  const parts = [
    group.schedule && 'schedule',
    group.power && 'off hours',
    group.rotation !== null && `${group.rotation}°`,
    group.time_zone,
  ].filter(Boolean);
  return parts.join(', ') || '—';
}

/** Groups of screens: screens managed together, each taking its group's settings unless it sets its own. */
export default function GroupsPage() {
  const groups = useQuery(groupsQuery);
  const screens = useOverview();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const remove = useMutation({
    mutationFn: (id: string) => send(groupPath(id), { method: 'DELETE' }),
    onSettled: () =>
      Promise.all(['groups', 'devices'].map((key) => queries.invalidateQueries({ queryKey: [key] }))),
  });
  const countOf = (id: string) => screens.data?.filter((screen) => screen.group_id === id).length ?? 0;
  const askDelete = async (group: Group) => {
    const sure = await confirmAction({
      title: `Delete the group “${group.name}”?`,
      body: 'Its screens stay, without a group: they keep their own settings and lose the group’s.',
      confirm: 'Delete the group',
    });
    if (sure) remove.mutate(group.id);
  };
  return (
    <>
      <PageHeader
        title="Groups"
        description="Screens managed together: a group's playlist, schedule, off hours, rotation and time zone apply to its screens, unless a screen sets its own."
        actions={<WriteButton onClick={() => setCreating(true)}>New group</WriteButton>}
      />
      <EditModal opened={creating} onClose={() => setCreating(false)} title="New group">
        <NameForm
          schema={groupCreateSchema}
          save={(body) => api(groupSchema, '/groups', { method: 'POST', body })}
          submit="Create the group"
          onDone={(group) => void navigate(`/groups/${encodeURIComponent(group.id)}`)}
        />
      </EditModal>
      {groups.error && <ErrorAlert error={groups.error} title="The groups could not be listed" />}
      {remove.error && <ErrorAlert error={remove.error} title="The group was not deleted" />}
      <ListTable label="Groups" minWidth={560} columns={['Name', 'Screens', 'Sets']} actions>
        {groups.data?.map((group) => (
          <Table.Tr key={group.id}>
            <Table.Td>
              <Anchor component={Link} to={`/groups/${encodeURIComponent(group.id)}`}>
                {group.name}
              </Anchor>
            </Table.Td>
            <Table.Td>{countOf(group.id)}</Table.Td>
            <Table.Td>{summary(group)}</Table.Td>
            <Table.Td>
              <WriteButton
                size="compact-sm"
                variant="subtle"
                color="red"
                aria-label={`Delete ${group.name}`}
                onClick={() => void askDelete(group)}
              >
                Delete
              </WriteButton>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      {groups.data?.length === 0 && <Text c="dimmed">No groups yet.</Text>}
    </>
  );
}
