import { Badge, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Release } from '../../../../src/shared/release';
import { send } from '../../api/client';
import { confirmAction } from '../../ui/confirm';
import { ErrorAlert } from '../../ui/error-panel';
import { ListTable } from '../../ui/list-table';
import { tell } from '../../ui/notify';
import { TimeAgo } from '../../ui/time';
import { WriteButton } from '../../ui/write-button';
import { formatBytes } from '../media/format';
import { KIND_LABELS, releasesQuery } from './queries';
import { RolloutModal } from './rollout-form';

const ALL = 'all';
const FILTERS = [
  { value: ALL, label: 'Every kind and channel' },
  { value: 'shell/stable', label: `${KIND_LABELS.shell}, stable` },
  { value: 'shell/beta', label: `${KIND_LABELS.shell}, beta` },
  { value: 'web/stable', label: `${KIND_LABELS.web}, stable` },
  { value: 'web/beta', label: `${KIND_LABELS.web}, beta` },
];

/** The releases kept, newest first, each with its way out to the screens and its deletion. */
export function ReleaseList() {
  const queries = useQueryClient();
  const releases = useQuery(releasesQuery);
  const [rolling, setRolling] = useState<Release | null>(null);
  const [shown, setShown] = useState(ALL);
  const listed = releases.data?.filter(
    (release) => shown === ALL || shown === `${release.kind}/${release.channel}`,
  );
  const remove = useMutation({
    mutationFn: (release: Release) =>
      send(`/releases/${encodeURIComponent(release.id)}`, { method: 'DELETE' }),
    onSuccess: (_nothing, release) =>
      tell(`${KIND_LABELS[release.kind]} ${release.version} is deleted`, 'green'),
    onSettled: () => queries.invalidateQueries({ queryKey: ['releases'] }),
  });
  const ask = async (release: Release) => {
    const sure = await confirmAction({
      title: 'Delete the release?',
      body: `${KIND_LABELS[release.kind]} ${release.version} and its files go. Screens that installed it keep running it.`,
      confirm: 'Delete it',
    });
    if (sure) remove.mutate(release);
  };
  return (
    <Stack gap="xs">
      <Group justify="space-between" gap="xs">
        <Title order={2} size="h4">
          Releases
        </Title>
        <Select
          aria-label="Show releases"
          size="xs"
          w={220}
          data={FILTERS}
          value={shown}
          onChange={(value) => setShown(value ?? ALL)}
          allowDeselect={false}
        />
      </Group>
      {releases.error && <ErrorAlert error={releases.error} title="The releases could not be listed" />}
      {remove.error && <ErrorAlert error={remove.error} title="The release was not deleted" />}
      <ListTable
        label="Releases"
        minWidth={720}
        columns={['Version', 'Kind', 'Channel', 'Files', 'Uploaded']}
        actions
      >
        {listed?.map((release) => (
          <Table.Tr key={release.id}>
            <Table.Td>
              <Text fw={600} size="sm">
                {release.version}
              </Text>
              {release.notes && (
                <Text size="xs" c="dimmed" lineClamp={2}>
                  {release.notes}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{KIND_LABELS[release.kind]}</Table.Td>
            <Table.Td>
              <Badge variant="light" color={release.channel === 'beta' ? 'orange' : 'blue'}>
                {release.channel}
              </Badge>
            </Table.Td>
            <Table.Td>
              {release.files.length}, {formatBytes(release.files.reduce((sum, file) => sum + file.size, 0))}
            </Table.Td>
            <Table.Td>
              <TimeAgo iso={release.created_at} />
            </Table.Td>
            <Table.Td>
              <Group gap="xs" wrap="nowrap" justify="flex-end">
                <WriteButton size="xs" onClick={() => setRolling(release)}>
                  Roll out…
                </WriteButton>
                <WriteButton
                  size="xs"
                  variant="subtle"
                  color="red"
                  loading={remove.isPending && remove.variables.id === release.id}
                  onClick={() => void ask(release)}
                >
                  Delete
                </WriteButton>
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      {releases.data?.length === 0 && <Text c="dimmed">No release uploaded yet.</Text>}
      {releases.data?.length !== 0 && listed?.length === 0 && (
        <Text c="dimmed">No release of this kind and channel.</Text>
      )}
      <RolloutModal release={rolling} onClose={() => setRolling(null)} />
    </Stack>
  );
}
