import { Anchor, Badge, Table, Text } from '@mantine/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { flowSchema } from '../../../src/shared/flow';
import { scriptSchema, type ScriptRun } from '../../../src/shared/script';
import { api } from '../api/client';
import { ErrorAlert } from '../ui/error-panel';
import { PageHeader } from '../ui/page-header';
import { TimeAgo } from '../ui/time';
import { WriteButton } from '../ui/write-button';
import { OutcomeBadge, runsQuery } from './scripts/run-log';
import { ScriptLimits } from './scripts/script-limits';
import { ListTable } from '../ui/list-table';

export default function ScriptsPage() {
  const navigate = useNavigate();
  const scripts = useQuery({ queryKey: ['scripts'], queryFn: () => api(z.array(scriptSchema), '/scripts') });
  const flows = useQuery({ queryKey: ['flows'], queryFn: () => api(z.array(flowSchema), '/flows') });
  const lastRuns = useQueries({
    queries: (scripts.data ?? []).map((script) => ({
      ...runsQuery(script.id),
      select: (runs: ScriptRun[]) => runs[0] ?? null,
    })),
  });
  const flowTag = new Map(flows.data?.map((flow) => [flow.id, flow.tag]));
  return (
    <>
      <PageHeader
        title="Scripts"
        description="JavaScript the service runs on an interval; what a script returns becomes its flow's data."
        actions={<WriteButton onClick={() => void navigate('/scripts/new')}>New script</WriteButton>}
      />
      <ScriptLimits />
      {scripts.error && <ErrorAlert error={scripts.error} title="The scripts could not be listed" />}
      <ListTable
        label="The scripts"
        minWidth={640}
        columns={['Name', 'State', 'Interval', 'Last run', 'Flow it feeds']}
      >
        {scripts.data?.map((script, index) => {
          const last = lastRuns[index]?.data;
          return (
            <Table.Tr key={script.id}>
              <Table.Td>
                <Anchor component={Link} to={`/scripts/${encodeURIComponent(script.id)}`}>
                  {script.name}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Badge variant="dot" color={script.enabled ? 'green' : 'gray'}>
                  {script.enabled ? 'enabled' : 'disabled'}
                </Badge>
              </Table.Td>
              <Table.Td>every {script.interval}</Table.Td>
              <Table.Td>
                {last ? (
                  <Text component="span" size="sm">
                    <OutcomeBadge outcome={last.outcome} /> <TimeAgo iso={last.started_at} />
                  </Text>
                ) : (
                  'never'
                )}
              </Table.Td>
              <Table.Td>{script.flow_id ? (flowTag.get(script.flow_id) ?? script.flow_id) : '—'}</Table.Td>
            </Table.Tr>
          );
        })}
      </ListTable>
      {scripts.data?.length === 0 && <Text c="dimmed">No scripts yet.</Text>}
    </>
  );
}
