import { faPen, faTrash } from '@fortawesome/free-solid-svg-icons';
import { Anchor, Grid, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { EditModal } from '../../ui/edit-modal';
import { ErrorAlert, ErrorPanel } from '../../ui/error-panel';
import { FaIcon } from '../../ui/fa-icon';
import { Loading } from '../../ui/loading';
import { PageHeader } from '../../ui/page-header';
import { WriteButton } from '../../ui/write-button';
import { useDeleteSource } from './delete-source';
import { isHttpKind, KIND_WORDS } from './kinds';
import { bindingsQuery, sourceQuery } from './queries';
import { Runs } from './runs';
import { SourceForm } from './source-form';
import { durationWords } from './source-fields';
import { TestPanel } from './test-panel';
import { lastRunWords } from './words';

/**
 * One data source: what it is set to, a query tested against it, the flows it feeds and its
 * recent runs. Its settings change in a dialog (one Save); Test and Delete act at once.
 */
export default function SourcePage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const source = useQuery(sourceQuery(id));
  const bindings = useQuery(bindingsQuery(id));
  const [editing, setEditing] = useState(false);
  const remove = useDeleteSource();
  if (source.isPending) return <Loading label="Loading the data source" />;
  if (source.error) return <ErrorPanel error={source.error} />;
  const data = source.data;
  const last = lastRunWords(data);
  return (
    <>
      <PageHeader
        title={data.name}
        description={
          <>
            <Anchor component={Link} to="/data-sources" size="sm" underline="always">
              Data sources
            </Anchor>{' '}
            · {KIND_WORDS[data.kind].label}
          </>
        }
        actions={
          <>
            <WriteButton
              variant="default"
              leftSection={<FaIcon icon={faPen} />}
              onClick={() => setEditing(true)}
            >
              Edit the settings
            </WriteButton>
            <WriteButton
              variant="light"
              color="red"
              leftSection={<FaIcon icon={faTrash} />}
              loading={remove.pending}
              onClick={() => void remove.ask(data).then((gone) => gone && navigate('/data-sources'))}
            >
              Delete the source
            </WriteButton>
          </>
        }
      />
      <EditModal
        opened={editing}
        onClose={() => setEditing(false)}
        title={`Settings of ${data.name}`}
        size="lg"
      >
        <SourceForm source={data} onCancel={() => setEditing(false)} onSaved={() => setEditing(false)} />
      </EditModal>
      {remove.error && <ErrorAlert error={remove.error} title="The source was not deleted" />}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Paper withBorder p="md">
            <TestPanel source={data} />
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="lg">
            <section aria-labelledby="source-settings-title">
              <Title order={2} size="h4" id="source-settings-title" mb="sm">
                Settings
              </Title>
              <Stack gap={4}>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {KIND_WORDS[data.kind].urlLabel}: {data.url}
                </Text>
                <Text size="sm">
                  Asks every {durationWords(data.interval_seconds)}, waits at most{' '}
                  {durationWords(data.timeout_seconds)}
                </Text>
                {isHttpKind(data.kind) && (
                  <Text size="sm">
                    Sign-in:{' '}
                    {data.auth === 'none' ? 'none' : data.auth === 'basic' ? 'user and password' : 'token'}
                    {data.auth !== 'none' && !data.has_secret && ' (no password or token set)'}
                  </Text>
                )}
                <Text size="sm">
                  {data.allow_private
                    ? 'May reach addresses on this network'
                    : 'Reaches public internet addresses only'}
                </Text>
                <Text size="sm" c={last.failed ? 'red' : undefined}>
                  {last.text}
                </Text>
              </Stack>
            </section>
            <section aria-labelledby="source-flows-title">
              <Title order={2} size="h4" id="source-flows-title" mb="sm">
                Flows it feeds
              </Title>
              {bindings.error && <ErrorAlert error={bindings.error} title="The flows could not be read" />}
              {bindings.data?.length === 0 && (
                <Text size="sm" c="dimmed">
                  None yet: select a widget in a board’s editor and choose this source under “Data from a
                  source”.
                </Text>
              )}
              <List size="sm" spacing={4}>
                {bindings.data?.map((binding) => (
                  <List.Item key={binding.id}>
                    <Anchor
                      component={Link}
                      to={`/flows/${encodeURIComponent(binding.flow_id)}`}
                      size="sm"
                      underline="always"
                    >
                      {binding.flow_tag}
                    </Anchor>{' '}
                    {binding.last_error && (
                      <Text span size="sm" c="red">
                        failing: {binding.last_error}
                      </Text>
                    )}
                  </List.Item>
                ))}
              </List>
            </section>
          </Stack>
        </Grid.Col>
        <Grid.Col span={12}>
          <Runs sourceId={data.id} />
        </Grid.Col>
      </Grid>
    </>
  );
}
