import { Anchor, Group, Loader, Text } from '@mantine/core';
import { ErrorAlert } from '../../ui/error-panel';
import { formatDate, TimeAgo } from '../../ui/time';
import { isWaiting, useCommands } from './commands-panel';
import { screenshotUrl, useScreenshotTime } from './queries';
import { Section } from './section';

/** The newest screenshot, large; a new one replaces it as soon as the service has it. */
export function ScreenshotPanel({ tag, name }: { tag: string; name: string }) {
  const takenAt = useScreenshotTime(tag);
  const commands = useCommands(tag);
  const taking = commands.data?.some((command) => command.type === 'screenshot' && isWaiting(command));
  return (
    <Section
      title="Screenshot"
      actions={
        takenAt.data && (
          <Text size="sm" c="dimmed" data-testid="screenshot-time">
            taken <TimeAgo iso={takenAt.data} />
          </Text>
        )
      }
    >
      {takenAt.error && <ErrorAlert error={takenAt.error} title="The screenshot could not be read" />}
      {taking && (
        <Group gap="xs">
          <Loader size="xs" aria-hidden />
          <Text size="sm" role="status">
            Waiting for a new screenshot…
          </Text>
        </Group>
      )}
      {takenAt.data === null && !taking && (
        <Text size="sm" c="dimmed">
          No screenshot yet: take one with the command below.
        </Text>
      )}
      {takenAt.data && (
        <Anchor href={screenshotUrl(tag, takenAt.data)} target="_blank" rel="noopener">
          <img
            src={screenshotUrl(tag, takenAt.data)}
            alt={`What ${name} showed at ${formatDate(takenAt.data)}`}
            data-testid="screenshot"
            style={{
              display: 'block',
              width: '100%',
              maxHeight: '60vh',
              objectFit: 'contain',
              background: 'var(--mantine-color-default-hover)',
              borderRadius: 'var(--mantine-radius-sm)',
            }}
          />
        </Anchor>
      )}
    </Section>
  );
}
