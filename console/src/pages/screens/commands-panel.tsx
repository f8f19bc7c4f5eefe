import { Badge, Group, Loader, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  commandSchema,
  IDENTIFY_SECONDS,
  type Command,
  type CommandStatus,
  type CommandType,
} from '../../../../src/shared/command';
import { api } from '../../api/client';
import { ErrorAlert } from '../../ui/error-panel';
import { TimeAgo } from '../../ui/time';
import { WriteButton } from '../../ui/write-button';
import { devicePath } from './queries';
import { Section } from './section';

const COMMANDS: { type: CommandType; label: string; help: string }[] = [
  { type: 'identify', label: 'Identify', help: `Shows its name and tag on screen for ${IDENTIFY_SECONDS} s` },
  { type: 'reload', label: 'Reload', help: 'Reloads the player page' },
  { type: 'restart', label: 'Restart', help: 'Restarts the player' },
  { type: 'screenshot', label: 'Take a screenshot', help: 'Stores a picture of what it shows now' },
  { type: 'wake', label: 'Wake', help: 'Turns it on until its off hours end, when they have it off now' },
];
const LABELS = Object.fromEntries(COMMANDS.map(({ type, label }) => [type, label])) as Record<
  CommandType,
  string
>;

const STATUS: Record<CommandStatus, { color: string; label: string }> = {
  queued: { color: 'gray', label: 'waiting for the screen' },
  delivered: { color: 'blue', label: 'running' },
  done: { color: 'green', label: 'done' },
  failed: { color: 'red', label: 'failed' },
};
const RECENT = 5;

export const isWaiting = (command: Command) => command.status === 'queued' || command.status === 'delivered';

/** The device's newest commands, newest first; kept live by the `commands` notice. */
export function useCommands(tag: string) {
  return useQuery({
    queryKey: ['devices', tag, 'commands'],
    queryFn: () => api(z.array(commandSchema), `${devicePath(tag)}/commands?limit=${RECENT}`),
    select: (commands) => [...commands].reverse(),
  });
}

function CommandStatusBadge({ command }: { command: Command }) {
  const { color, label } = STATUS[command.status];
  return (
    <Group gap={6} wrap="nowrap">
      {isWaiting(command) && <Loader size={12} aria-hidden />}
      <Badge color={color} variant="dot" miw="max-content">
        {label}
      </Badge>
    </Group>
  );
}

/** The remote commands, and how the latest ones went. */
export function CommandsPanel({ tag, online }: { tag: string; online: boolean }) {
  const queries = useQueryClient();
  const commands = useCommands(tag);
  const send = useMutation({
    mutationFn: (type: CommandType) =>
      api(commandSchema, `${devicePath(tag)}/commands`, { method: 'POST', body: { type } }),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['devices', tag, 'commands'] }),
  });
  return (
    <Section title="Commands">
      {!online && (
        <Text size="sm" c="dimmed">
          The screen is offline: a command waits for it (an hour at most).
        </Text>
      )}
      <Group gap="xs">
        {COMMANDS.map(({ type, label, help }) => (
          <WriteButton
            key={type}
            variant="light"
            title={help}
            loading={send.isPending && send.variables === type}
            onClick={() => send.mutate(type)}
          >
            {label}
          </WriteButton>
        ))}
      </Group>
      {send.error && <ErrorAlert error={send.error} title="The command was refused" />}
      {commands.error && <ErrorAlert error={commands.error} title="The commands could not be listed" />}
      {commands.data && commands.data.length > 0 && (
        <Table aria-label="Latest commands">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Command</Table.Th>
              <Table.Th>Sent</Table.Th>
              <Table.Th>Outcome</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {commands.data.map((command) => (
              <Table.Tr key={command.id} data-testid="command-row">
                <Table.Td>{LABELS[command.type]}</Table.Td>
                <Table.Td>
                  <TimeAgo iso={command.created_at} />
                </Table.Td>
                <Table.Td>
                  <CommandStatusBadge command={command} />
                  {command.reason && (
                    <Text size="xs" c={command.status === 'failed' ? 'red' : 'dimmed'}>
                      {command.reason}
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Section>
  );
}
