import { Alert, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { overrideSchema, type Override } from '../../../src/shared/override';
import { api, send } from '../api/client';
import { useCanWrite } from '../session/session';
import { confirmAction } from '../ui/confirm';
import { ErrorAlert } from '../ui/error-panel';
import { ListTable } from '../ui/list-table';
import { tell } from '../ui/notify';
import { PageHeader } from '../ui/page-header';
import { TimeAgo } from '../ui/time';
import { CapFeeds } from './emergency/cap-feeds';
import { OverrideForm } from './emergency/override-form';
import { whereOf } from './emergency/where';
import { groupsQuery } from './schedules/queries';

const activeQuery = {
  queryKey: ['overrides'],
  queryFn: () => api(z.array(overrideSchema), '/overrides'),
};
const historyQuery = {
  queryKey: ['overrides', 'history'],
  queryFn: () => api(z.array(overrideSchema), '/overrides/history'),
};

/** What is on the screens now, each with its way off them. */
function ActiveOverrides() {
  const canWrite = useCanWrite();
  const queries = useQueryClient();
  const active = useQuery(activeQuery);
  const groups = useQuery(groupsQuery);
  const clear = useMutation({
    mutationFn: (override: Override) =>
      send(`/overrides/${encodeURIComponent(override.id)}`, { method: 'DELETE' }),
    onSuccess: (_nothing, override) => tell(`"${override.title}" is cleared`, 'green'),
    onSettled: () => queries.invalidateQueries({ queryKey: ['overrides'] }),
  });
  const ask = async (override: Override) => {
    const sure = await confirmAction({
      title: 'Clear the message?',
      body: `The screens showing "${override.title}" go back to what they played.`,
      confirm: 'Clear it',
    });
    if (sure) clear.mutate(override);
  };
  if (active.error)
    return <ErrorAlert error={active.error} title="What is on the screens could not be read" />;
  if (!active.data) return null;
  if (active.data.length === 0)
    return (
      <Alert color="gray" title="No emergency message is on the screens">
        The screens play their playlists and schedules.
      </Alert>
    );
  return (
    <Stack gap="xs">
      {clear.error && <ErrorAlert error={clear.error} />}
      {active.data.map((override) => (
        <Alert
          key={override.id}
          color="red.9"
          variant="filled"
          title={`On screen: ${override.title}`}
          aria-label={`On screen: ${override.title}`}
        >
          <Stack gap={6}>
            <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
              {override.message}
            </Text>
            <Text size="xs">
              {whereOf(override.target, groups.data)}, since <TimeAgo iso={override.created_at} />
              {override.expires_at && (
                <>
                  , ends <TimeAgo iso={override.expires_at} />
                </>
              )}
              , by {override.created_by}
            </Text>
            {canWrite && (
              <Group>
                <Button
                  color="red.9"
                  variant="white"
                  size="xs"
                  loading={clear.isPending && clear.variables.id === override.id}
                  onClick={() => void ask(override)}
                >
                  Clear
                </Button>
              </Group>
            )}
          </Stack>
        </Alert>
      ))}
    </Stack>
  );
}

/** Every override, who raised it, where, when, and who cleared it. */
function OverrideHistory() {
  const history = useQuery(historyQuery);
  const groups = useQuery(groupsQuery);
  const ended = (override: Override) =>
    override.cleared_at ? (
      <>
        Cleared <TimeAgo iso={override.cleared_at} /> by {override.cleared_by}
      </>
    ) : override.active ? (
      <Badge color="red.9">On screen</Badge>
    ) : (
      <>
        Ended <TimeAgo iso={override.expires_at ?? override.created_at} />
      </>
    );
  return (
    <Stack mt="xl" gap="xs">
      <Title order={2} size="h4">
        History
      </Title>
      {history.error && <ErrorAlert error={history.error} title="The history could not be listed" />}
      <ListTable
        label="Emergency messages"
        minWidth={720}
        columns={['Raised', 'Title', 'Where', 'By', 'Ended']}
      >
        {history.data?.map((override) => (
          <Table.Tr key={override.id}>
            <Table.Td>
              <TimeAgo iso={override.created_at} />
            </Table.Td>
            <Table.Td>{override.title}</Table.Td>
            <Table.Td>{whereOf(override.target, groups.data)}</Table.Td>
            <Table.Td>{override.created_by}</Table.Td>
            <Table.Td>{ended(override)}</Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      {history.data?.length === 0 && <Text c="dimmed">No emergency message yet.</Text>}
    </Stack>
  );
}

export default function EmergencyPage() {
  // Read once for the history and for what each feed raised.
  const history = useQuery(historyQuery);
  return (
    <>
      <PageHeader
        title="Emergency"
        description="A full-screen message above every playlist and schedule, on every screen, a group or one screen, until you clear it. Screens that are off wake to show it."
      />
      <Stack gap="xl">
        <ActiveOverrides />
        <OverrideForm />
        <CapFeeds history={history.data} />
      </Stack>
      <OverrideHistory />
    </>
  );
}
