import { faPlus, faTrash } from '@fortawesome/free-solid-svg-icons';
import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { SOURCE_HEADERS_MAX } from '../../../../src/shared/data-source';
import { FaIcon } from '../../ui/fa-icon';
import type { HeaderRow } from './source-fields';

/**
 * Headers sent with each request, as rows of a name and a value. They are not secret (every
 * reader sees them): a password or token goes in the sign-in's secret instead.
 */
export function HeadersEditor({
  rows,
  onChange,
  error,
  disabled,
}: {
  rows: readonly HeaderRow[];
  onChange: (rows: HeaderRow[]) => void;
  error?: string;
  disabled: boolean;
}) {
  const set = (index: number, row: HeaderRow) =>
    onChange(rows.map((current, at) => (at === index ? row : current)));
  return (
    <Stack gap={6} role="group" aria-labelledby="source-headers-label">
      <Text size="sm" fw={500} id="source-headers-label">
        Headers
      </Text>
      <Text size="xs" c="dimmed">
        Sent with each request, such as Accept: application/json. Everyone who can read this page sees them:
        put a password or token in the sign-in above instead.
      </Text>
      {rows.map((row, index) => (
        <Group key={index} gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label={`Header ${index + 1} name`}
            placeholder="Accept"
            value={row.name}
            disabled={disabled}
            onChange={(event) => set(index, { ...row, name: event.currentTarget.value })}
            style={{ flex: 1 }}
          />
          <TextInput
            label={`Header ${index + 1} value`}
            placeholder="application/json"
            value={row.value}
            disabled={disabled}
            onChange={(event) => set(index, { ...row, value: event.currentTarget.value })}
            style={{ flex: 2 }}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            size="lg"
            mb={2}
            aria-label={`Remove header ${index + 1}`}
            disabled={disabled}
            onClick={() => onChange(rows.filter((_, at) => at !== index))}
          >
            <FaIcon icon={faTrash} />
          </ActionIcon>
        </Group>
      ))}
      {error && (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      )}
      <Group>
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<FaIcon icon={faPlus} />}
          disabled={disabled || rows.length >= SOURCE_HEADERS_MAX}
          onClick={() => onChange([...rows, { name: '', value: '' }])}
        >
          Add a header
        </Button>
      </Group>
    </Stack>
  );
}
