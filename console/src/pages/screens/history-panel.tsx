import { Badge, Button, Stack, Table, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { deviceHistoryPageSchema, type DeviceHistoryKind } from '../../../../src/shared/device-history';
import { api } from '../../api/client';
import { ErrorAlert } from '../../ui/error-panel';
import { TimeAgo } from '../../ui/time';
import { devicePath } from './queries';
import { Section } from './section';

const PAGE = 25;
const KINDS: Record<DeviceHistoryKind, { color: string; label: string }> = {
  online: { color: 'green', label: 'online' },
  offline: { color: 'gray', label: 'offline' },
  showing: { color: 'blue', label: 'showing' },
  failure: { color: 'red', label: 'failure' },
  recovery: { color: 'yellow', label: 'recovery' },
};

/** The status history, newest first, a page at a time. */
export function HistoryPanel({ tag }: { tag: string }) {
  const history = useInfiniteQuery({
    queryKey: ['devices', tag, 'history'],
    queryFn: ({ pageParam }) =>
      api(
        deviceHistoryPageSchema,
        `${devicePath(tag)}/history?limit=${PAGE}${pageParam === null ? '' : `&before=${pageParam}`}`,
      ),
    initialPageParam: null as number | null,
    getNextPageParam: (page) => page.next_before,
  });
  const entries = history.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <Section title="Status history">
      {history.error && <ErrorAlert error={history.error} title="The history could not be read" />}
      {history.data && entries.length === 0 && (
        <Text size="sm" c="dimmed">
          Nothing yet.
        </Text>
      )}
      {entries.length > 0 && (
        <Table aria-label="Status history">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w="9rem">What, when</Table.Th>
              <Table.Th>Detail</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map((entry) => (
              <Table.Tr key={entry.seq} data-testid="history-row">
                <Table.Td>
                  <Stack gap={2} align="flex-start">
                    <Badge color={KINDS[entry.kind].color} variant="dot" miw="max-content">
                      {KINDS[entry.kind].label}
                    </Badge>
                    <Text size="xs" c="dimmed">
                      <TimeAgo iso={entry.at} />
                    </Text>
                  </Stack>
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{entry.detail}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {history.hasNextPage && (
        <Button
          variant="default"
          onClick={() => void history.fetchNextPage()}
          loading={history.isFetchingNextPage}
          style={{ alignSelf: 'flex-start' }}
        >
          Show older
        </Button>
      )}
    </Section>
  );
}
