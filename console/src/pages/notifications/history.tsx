import { Code, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { libraryMediaId } from '../../../../src/shared/media';
import { notificationSchema, type Notification } from '../../../../src/shared/notification';
import { api } from '../../api/client';
import { ErrorAlert } from '../../ui/error-panel';
import { TimeAgo } from '../../ui/time';
import { ListTable } from '../../ui/list-table';
import { targetOfListed, whereWords, type TargetNames } from './target';

function soundOf(notification: Notification): string {
  if (!notification.sound_url) return '—';
  if (notification.sound_url === 'default') return 'default';
  return libraryMediaId(notification.sound_url) ? 'library' : 'URL';
}

/** What was sent, newest first; kept live by the `notifications` notice. */
export function NotificationHistory({ names }: { names: TargetNames }) {
  const history = useQuery({
    queryKey: ['notifications'],
    queryFn: () => api(z.array(notificationSchema), '/notifications'),
  });
  return (
    <Stack mt="xl" gap="xs">
      <Title order={2} size="h4">
        History
      </Title>
      {history.error && <ErrorAlert error={history.error} title="The history could not be listed" />}
      <ListTable
        label="Notifications sent"
        minWidth={640}
        columns={['Sent', 'Sent to', 'Title', 'Message', 'Icon', 'Duration', 'Sound']}
      >
        {history.data?.map((notification) => (
          <Table.Tr key={notification.id}>
            <Table.Td>
              <TimeAgo iso={notification.created_at} />
            </Table.Td>
            <Table.Td>{whereWords(targetOfListed(notification), names)}</Table.Td>
            <Table.Td>{notification.title ?? '—'}</Table.Td>
            <Table.Td>{notification.message ?? '—'}</Table.Td>
            <Table.Td>{notification.icon ? <Code>{notification.icon}</Code> : '—'}</Table.Td>
            <Table.Td>{notification.duration} s</Table.Td>
            <Table.Td>{soundOf(notification)}</Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      {history.data?.length === 0 && <Text c="dimmed">Nothing sent yet.</Text>}
    </Stack>
  );
}
