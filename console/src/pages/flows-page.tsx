import { Anchor, Badge, Code, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { VARIANTS, type Variant } from '../../../src/shared/variants';
import { ErrorAlert } from '../ui/error-panel';
import { PageHeader } from '../ui/page-header';
import { FlowState } from './flows/flow-state';
import { flowsQuery, metricsQuery, useBoardsByFlow, useChannelNames } from './flows/flow-queries';
import { VariantShape } from './flows/variant-shape';
import { ListTable } from '../ui/list-table';

const DATA_PREVIEW = 80;

function compact(data: unknown): string {
  const text = JSON.stringify(data);
  return text.length > DATA_PREVIEW ? `${text.slice(0, DATA_PREVIEW)}…` : text;
}

export default function FlowsPage() {
  const flows = useQuery(flowsQuery);
  const metrics = useQueries({ queries: (flows.data ?? []).map((flow) => metricsQuery(flow.tag)) });
  const channelName = useChannelNames();
  const boardsByFlow = useBoardsByFlow();
  const [variant, setVariant] = useState<Variant>('value');
  return (
    <>
      <PageHeader
        title="Flows"
        description="The data sets widgets show: each has a variant (the shape of its data), a channel, and the data it holds now."
      />
      {flows.error && <ErrorAlert error={flows.error} title="The flows could not be listed" />}
      <ListTable
        label="The flows"
        minWidth={760}
        columns={['Tag', 'Variant', 'State', 'Channel', 'Boards', 'Data now']}
      >
        {flows.data?.map((flow, index) => {
          const data = metrics[index]?.data;
          return (
            <Table.Tr key={flow.id}>
              <Table.Td>
                <Anchor component={Link} to={`/flows/${encodeURIComponent(flow.id)}`}>
                  {flow.tag}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Badge variant="outline">{flow.variant}</Badge>
              </Table.Td>
              <Table.Td>
                <FlowState flow={flow} />
              </Table.Td>
              <Table.Td>
                {flow.channel_id ? (channelName.get(flow.channel_id) ?? flow.channel_id) : '—'}
              </Table.Td>
              <Table.Td>{boardsByFlow.get(flow.id)?.join(', ') ?? '—'}</Table.Td>
              <Table.Td>
                {data === undefined ? (
                  '…'
                ) : Object.keys(data).length === 0 ? (
                  <Text size="sm" c="dimmed">
                    no data yet
                  </Text>
                ) : (
                  <Code>{compact(data)}</Code>
                )}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </ListTable>
      {flows.data?.length === 0 && <Text c="dimmed">No flows yet: widgets make them, or POST /flows.</Text>}
      <Stack mt="xl" gap="xs">
        <Title order={2} size="h4">
          Data shapes
        </Title>
        <Select
          label="Variant"
          description="What a flow of this variant accepts"
          data={[...VARIANTS]}
          value={variant}
          onChange={(value) => value && setVariant(value as Variant)}
          allowDeselect={false}
          searchable
          maw={320}
        />
        <VariantShape variant={variant} />
      </Stack>
    </>
  );
}
