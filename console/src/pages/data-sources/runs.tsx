import { Badge, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ErrorAlert } from '../../ui/error-panel';
import { ListTable } from '../../ui/list-table';
import { TimeAgo } from '../../ui/time';
import { runsQuery } from './queries';

/** The source's recent passes, newest first: whether each answered, and how its widgets fared. */
export function Runs({ sourceId }: { sourceId: string }) {
  const runs = useQuery(runsQuery(sourceId));
  return (
    <section aria-labelledby="source-runs-title">
      <Title order={2} size="h4" id="source-runs-title" mb="sm">
        Recent runs
      </Title>
      {runs.error && <ErrorAlert error={runs.error} title="The runs could not be read" />}
      <ListTable
        label="Recent runs"
        minWidth={560}
        columns={['When', 'Outcome', 'Flows updated', 'Flows failed', 'Error']}
      >
        {runs.data?.map((run) => (
          <Table.Tr key={run.id}>
            <Table.Td>
              <TimeAgo iso={run.started_at} />
            </Table.Td>
            <Table.Td>
              <Badge variant="dot" color={run.ok ? 'green' : 'red'}>
                {run.ok ? 'ok' : 'failed'}
              </Badge>{' '}
              <Text span size="xs" c="dimmed">
                {run.duration_ms} ms
              </Text>
            </Table.Td>
            <Table.Td>{run.updated}</Table.Td>
            <Table.Td>{run.failed}</Table.Td>
            <Table.Td>
              <Text size="sm" c={run.error ? 'red' : 'dimmed'} style={{ whiteSpace: 'pre-wrap' }}>
                {run.error ?? '—'}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      {runs.data?.length === 0 && (
        <Text c="dimmed" size="sm">
          No runs yet.
        </Text>
      )}
    </section>
  );
}
