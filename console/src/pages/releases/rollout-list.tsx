import { Badge, Group, NumberInput, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { rolloutSchema, type Rollout } from '../../../../src/shared/release';
import { api } from '../../api/client';
import { confirmAction } from '../../ui/confirm';
import { ErrorAlert } from '../../ui/error-panel';
import { ListTable } from '../../ui/list-table';
import { tell } from '../../ui/notify';
import { TimeAgo } from '../../ui/time';
import { WriteButton } from '../../ui/write-button';
import { groupsQuery } from '../schedules/queries';
import { KIND_LABELS, shareOf, rolloutsQuery } from './queries';

/** How far a rollout got: a bar of screens on the version, failed, pending, and the counts. */
export function RolloutProgress({ rollout }: { rollout: Rollout }) {
  const { targeted, on_version: done, failed, pending } = rollout.progress;
  const share = (count: number) => (targeted === 0 ? 0 : (count / targeted) * 100);
  return (
    <Stack gap={4} miw={160}>
      <Progress.Root size="md">
        <Progress.Section
          value={share(done)}
          color="green"
          aria-label={`${done} of ${targeted} on ${rollout.version}`}
        />
        <Progress.Section value={share(failed)} color="red" aria-label={`${failed} failed`} />
        <Progress.Section value={share(pending)} color="gray.4" aria-label={`${pending} pending`} />
      </Progress.Root>
      <Text size="xs">
        {done} of {targeted} on it{failed > 0 ? `, ${failed} failed` : ''}
        {pending > 0 ? `, ${pending} pending` : ''}
      </Text>
    </Stack>
  );
}

/** A percentage rollout's share, changed in place. */
function ShareEditor({ rollout }: { rollout: Rollout }) {
  const queries = useQueryClient();
  const [value, setValue] = useState<number>(rollout.percentage ?? 10);
  const change = useMutation({
    mutationFn: () =>
      api(rolloutSchema, `/rollouts/${encodeURIComponent(rollout.id)}`, {
        method: 'PATCH',
        body: { percentage: value },
      }),
    onSuccess: (changed) =>
      tell(`${changed.version} now goes to ${changed.percentage}% of the screens`, 'green'),
    onSettled: () => queries.invalidateQueries({ queryKey: ['releases'] }),
  });
  return (
    <Group gap={4} wrap="nowrap">
      <NumberInput
        aria-label="Share of the screens"
        size="xs"
        w={80}
        min={1}
        max={100}
        suffix="%"
        value={value}
        onChange={(next) => setValue(shareOf(next))}
      />
      <WriteButton
        size="xs"
        variant="default"
        disabled={value === rollout.percentage}
        loading={change.isPending}
        onClick={() => change.mutate()}
      >
        Set
      </WriteButton>
    </Group>
  );
}

/** Every rollout, newest first: where it goes, how far it got, its way back. */
export function RolloutList() {
  const queries = useQueryClient();
  const rollouts = useQuery(rolloutsQuery);
  const groups = useQuery(groupsQuery);
  const back = useMutation({
    mutationFn: (rollout: Rollout) =>
      api(rolloutSchema, `/rollouts/${encodeURIComponent(rollout.id)}/rollback`, { method: 'POST' }),
    onSuccess: (rollout) => tell(`${rollout.version} is rolled back`, 'green'),
    onSettled: () => queries.invalidateQueries({ queryKey: ['releases'] }),
  });
  const ask = async (rollout: Rollout) => {
    const sure = await confirmAction({
      title: 'Roll it back?',
      body: `The screens it reached are offered what they had before: an older rollout that reaches them, or nothing new. Screens that installed ${rollout.version} go back to the version offered to them.`,
      confirm: 'Roll back',
    });
    if (sure) back.mutate(rollout);
  };
  const nameOf = (id: string) => groups.data?.find((group) => group.id === id)?.name ?? id;
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        Rollouts
      </Title>
      {rollouts.error && <ErrorAlert error={rollouts.error} title="The rollouts could not be listed" />}
      {back.error && <ErrorAlert error={back.error} title="The rollout was not rolled back" />}
      <ListTable
        label="Rollouts"
        minWidth={760}
        columns={['Release', 'To', 'Progress', 'Started', 'State']}
        actions
      >
        {rollouts.data?.map((rollout) => (
          <Table.Tr key={rollout.id}>
            <Table.Td>
              <Text size="sm" fw={600}>
                {rollout.version}
              </Text>
              <Text size="xs" c="dimmed">
                {KIND_LABELS[rollout.kind]}, {rollout.channel}
              </Text>
            </Table.Td>
            <Table.Td>
              {rollout.group_ids ? (
                rollout.group_ids.map(nameOf).join(', ')
              ) : rollout.rolled_back_at ? (
                `${rollout.percentage}% of the screens`
              ) : (
                <ShareEditor rollout={rollout} />
              )}
            </Table.Td>
            <Table.Td>{rollout.rolled_back_at ? '—' : <RolloutProgress rollout={rollout} />}</Table.Td>
            <Table.Td>
              <TimeAgo iso={rollout.created_at} />
            </Table.Td>
            <Table.Td>
              {rollout.rolled_back_at ? (
                <Badge color="gray" variant="dot" miw="max-content">
                  Rolled back
                </Badge>
              ) : (
                <Badge color="green" variant="dot" miw="max-content">
                  In force
                </Badge>
              )}
            </Table.Td>
            <Table.Td>
              {!rollout.rolled_back_at && (
                <WriteButton
                  size="xs"
                  variant="subtle"
                  color="red"
                  loading={back.isPending && back.variables.id === rollout.id}
                  onClick={() => void ask(rollout)}
                >
                  Roll back
                </WriteButton>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      {rollouts.data?.length === 0 && <Text c="dimmed">Nothing rolled out yet.</Text>}
    </Stack>
  );
}
