import { Anchor, Badge, Code, Grid, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { flowSchema } from '../../../../src/shared/flow';
import { api } from '../../api/client';
import { ErrorAlert } from '../../ui/error-panel';
import { PageHeader } from '../../ui/page-header';
import { FlowState } from './flow-state';
import { metricsQuery, useBoardsByFlow, useChannelNames } from './flow-queries';
import { VariantShape } from './variant-shape';
import { Loading } from '../../ui/loading';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}

/** One flow (`flows/:id`): what it is, the data it holds now, and the shape that data must have. */
export default function FlowPage() {
  const { id = '' } = useParams();
  const flow = useQuery({
    queryKey: ['flows', id],
    queryFn: () => api(flowSchema, `/flows/${encodeURIComponent(id)}`),
  });
  const tag = flow.data?.tag;
  const data = useQuery({ ...metricsQuery(tag ?? ''), enabled: tag !== undefined });
  const channelName = useChannelNames();
  const boards = useBoardsByFlow().get(id);
  return (
    <>
      <PageHeader
        title={tag ? `Flow ${tag}` : 'Flow'}
        description={
          <Anchor component={Link} to="/flows" size="sm" underline="always">
            All flows
          </Anchor>
        }
      />
      {flow.error && <ErrorAlert error={flow.error} title="The flow could not be read" />}
      {flow.isPending && <Loading label="Loading the flow" />}
      {flow.data && (
        <Grid gap="xl">
          <Grid.Col span={{ base: 12, lg: 5 }}>
            <Stack>
              <SimpleGrid cols={2}>
                <Fact label="Variant">
                  <Badge variant="outline">{flow.data.variant}</Badge>
                </Fact>
                <Fact label="State">
                  <FlowState flow={flow.data} />
                </Fact>
                <Fact label="Channel">
                  {flow.data.channel_id
                    ? (channelName.get(flow.data.channel_id) ?? flow.data.channel_id)
                    : 'none'}
                </Fact>
                <Fact label="Boards">{boards?.join(', ') ?? 'none'}</Fact>
                <Fact label="Fed by">
                  {flow.data.source ? (
                    <Anchor component={Link} to={`/scripts/${encodeURIComponent(flow.data.source)}`}>
                      {flow.data.source}
                    </Anchor>
                  ) : (
                    'data pushed to it'
                  )}
                </Fact>
              </SimpleGrid>
              <Title order={2} size="h4">
                Data now
              </Title>
              {data.error && <ErrorAlert error={data.error} title="The data could not be read" />}
              {data.data && (
                <Code block tabIndex={0} data-testid="flow-data">
                  {JSON.stringify(data.data, null, 2)}
                </Code>
              )}
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 7 }}>
            <VariantShape variant={flow.data.variant} />
          </Grid.Col>
        </Grid>
      )}
    </>
  );
}
