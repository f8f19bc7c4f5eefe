import { Badge, Button, Grid, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { capFeedSchema, type CapFeed } from '../../../../src/shared/cap-feed';
import type { Override } from '../../../../src/shared/override';
import { api, send } from '../../api/client';
import { useCanWrite } from '../../session/session';
import { confirmAction } from '../../ui/confirm';
import { ErrorAlert } from '../../ui/error-panel';
import { ListTable } from '../../ui/list-table';
import { tell } from '../../ui/notify';
import { TimeAgo } from '../../ui/time';
import { groupsQuery } from '../schedules/queries';
import { CapFeedForm, SEVERITY_CHOICES } from './cap-feed-form';
import { whereOf } from './where';

/**
 * Under `overrides`: a feed's notices are the overrides' (its polls raise and clear them), and
 * the page refetches both on each. A poll that changes nothing says nothing, so the list is also
 * read again every 15 s to keep "last checked" current.
 */
export const capFeedsQuery = {
  queryKey: ['overrides', 'cap-feeds'],
  queryFn: () => api(z.array(capFeedSchema), '/cap-feeds'),
  refetchInterval: 15_000,
};

const severityWords = (feed: CapFeed) =>
  SEVERITY_CHOICES.find((choice) => choice.value === feed.min_severity)?.label ?? feed.min_severity;

function FeedState({ feed }: { feed: CapFeed }) {
  if (feed.last_error)
    return (
      <Stack gap={2}>
        <Badge color="red" variant="dot" miw="max-content">
          Failing
        </Badge>
        <Text size="xs" c="red.9" style={{ overflowWrap: 'anywhere' }}>
          {feed.last_error}
        </Text>
        <Text size="xs" c="dimmed">
          Its messages stay as they were until it reads again
          {feed.last_ok_at && (
            <>
              {' '}
              (last read <TimeAgo iso={feed.last_ok_at} />)
            </>
          )}
          .
        </Text>
      </Stack>
    );
  if (feed.last_ok_at)
    return (
      <Badge color="green" variant="dot" miw="max-content">
        Working
      </Badge>
    );
  return (
    <Badge color="gray" variant="dot" miw="max-content">
      Not read yet
    </Badge>
  );
}

/** What the feed has on screen now, and how many it raised before. */
function RaisedBy({ raised }: { raised: readonly Override[] }) {
  const now = raised.filter((override) => override.active);
  const before = raised.length - now.length;
  return (
    <Stack gap={4}>
      {now.map((override) => (
        <Badge key={override.id} color="red.9" variant="filled" style={{ textTransform: 'none' }}>
          {override.title}
        </Badge>
      ))}
      {now.length === 0 && <Text size="sm">Nothing</Text>}
      {before > 0 && (
        <Text size="xs" c="dimmed">
          {before} ended (see the history)
        </Text>
      )}
    </Stack>
  );
}

/**
 * Alert feeds: Common Alerting Protocol sources the service checks by itself, each raising an
 * emergency message for the alerts it takes and clearing it when the alert ends.
 */
export function CapFeeds({ history }: { history: readonly Override[] | undefined }) {
  const canWrite = useCanWrite();
  const queries = useQueryClient();
  const feeds = useQuery(capFeedsQuery);
  const groups = useQuery(groupsQuery);
  const remove = useMutation({
    mutationFn: (feed: CapFeed) => send(`/cap-feeds/${encodeURIComponent(feed.id)}`, { method: 'DELETE' }),
    onSuccess: (_nothing, feed) => tell(`The feed "${feed.name}" is removed`, 'green'),
    onSettled: () => queries.invalidateQueries({ queryKey: ['overrides'] }),
  });
  const ask = async (feed: CapFeed) => {
    const sure = await confirmAction({
      title: 'Remove the feed?',
      body: `"${feed.name}" is no longer checked, and the messages it has on screen are cleared.`,
      confirm: 'Remove it',
    });
    if (sure) remove.mutate(feed);
  };
  const raisedBy = (feed: CapFeed) =>
    (history ?? []).filter((override) => override.source?.cap_feed_id === feed.id);
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        Alert feeds
      </Title>
      <Text size="sm" c="dimmed">
        A feed of the Common Alerting Protocol (CAP), checked by the service: each alert grave enough, for
        your areas, goes on screen as an emergency message, and comes off when the feed cancels or replaces
        it, when it expires, or when it leaves the feed.
      </Text>
      {feeds.error && <ErrorAlert error={feeds.error} title="The feeds could not be listed" />}
      {remove.error && <ErrorAlert error={remove.error} />}
      {feeds.data && feeds.data.length > 0 && (
        <ListTable
          label="Alert feeds"
          minWidth={880}
          actions={canWrite}
          columns={['Feed', 'Shows on', 'Takes', 'Last checked', 'State', 'On screen now']}
        >
          {feeds.data.map((feed) => (
            <Table.Tr key={feed.id}>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {feed.name}
                </Text>
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {feed.url}
                </Text>
              </Table.Td>
              <Table.Td>{whereOf(feed.target, groups.data)}</Table.Td>
              <Table.Td>
                <Text size="sm">{severityWords(feed)}</Text>
                <Text size="xs" c="dimmed">
                  {feed.areas.length > 0 ? `In ${feed.areas.join(', ')}` : 'Any area'}
                </Text>
              </Table.Td>
              <Table.Td>
                <TimeAgo iso={feed.last_polled_at} never="Not yet" />
              </Table.Td>
              <Table.Td>
                <FeedState feed={feed} />
              </Table.Td>
              <Table.Td>
                <RaisedBy raised={raisedBy(feed)} />
              </Table.Td>
              {canWrite && (
                <Table.Td>
                  <Group justify="flex-end">
                    <Button
                      color="red"
                      variant="subtle"
                      size="xs"
                      aria-label={`Remove ${feed.name}`}
                      loading={remove.isPending && remove.variables.id === feed.id}
                      onClick={() => void ask(feed)}
                    >
                      Remove
                    </Button>
                  </Group>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </ListTable>
      )}
      {feeds.data?.length === 0 && <Text c="dimmed">No alert feed yet.</Text>}
      <Grid>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <CapFeedForm />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
