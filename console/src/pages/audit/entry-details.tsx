import { Code, Stack, Table, Text } from '@mantine/core';
import type { AuditEntry } from '../../../../src/shared/audit';
import { formatDate } from '../../ui/time';
import { actionLabel, fieldRows, subjectOf } from './entries';

/** A value as text, kept on its lines (a list of settings spans several). */
function Value({ text }: { text: string }) {
  if (!text.includes('\n')) return <>{text}</>;
  return (
    <Code block fz="xs">
      {text}
    </Code>
  );
}

/** One entry in words: who did what, when and from where, and each field before and after. */
export function EntryDetails({ entry }: { entry: AuditEntry }) {
  const rows = fieldRows(entry);
  const both = entry.before !== null && entry.after !== null;
  return (
    <Stack gap="sm">
      <Text size="sm">
        {actionLabel(entry.action)}: {subjectOf(entry)}, by {entry.actor.name || entry.actor.id} (
        {entry.actor.kind}){entry.actor.address ? ` from ${entry.actor.address}` : ''}, {formatDate(entry.at)}
        .
      </Text>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          No fields were recorded.
        </Text>
      ) : (
        <Table.ScrollContainer
          minWidth={420}
          scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Fields' } }}
        >
          <Table aria-label="Fields" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Field</Table.Th>
                {entry.before !== null && <Table.Th>Before</Table.Th>}
                {entry.after !== null && <Table.Th>After</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.field} fw={row.changed ? 600 : undefined}>
                  <Table.Td>
                    {row.field}
                    {both && row.changed && (
                      <Text span size="xs" c="dimmed">
                        {' '}
                        (changed)
                      </Text>
                    )}
                  </Table.Td>
                  {entry.before !== null && (
                    <Table.Td>
                      <Value text={row.before} />
                    </Table.Td>
                  )}
                  {entry.after !== null && (
                    <Table.Td>
                      <Value text={row.after} />
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
