import { faTrash } from '@fortawesome/free-solid-svg-icons';
import { Button, Chip, Group, Input, Paper, Stack, Text, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { WEEK_DAYS, type WeekDay, type WeeklyWindow } from '../../../../src/shared/schedule';
import { FaIcon } from '../../ui/fa-icon';
import { DAY_LABELS } from './windows';

/** A path's error among the problems, by the field's name ("days", "from", ...). */
export type FieldErrors = Partial<Record<string, string>>;

/**
 * The days and the times of a weekly window. Times are typed in the browser's own time field;
 * "24:00" (the end of the day) is what an empty "to" means.
 */
export function WindowFields({
  value,
  onChange,
  errors,
  disabled,
  label,
}: {
  value: WeeklyWindow;
  onChange: (window: WeeklyWindow) => void;
  errors: FieldErrors;
  disabled: boolean;
  /** Names the window for assistive technology ("Entry 2"). */
  label: string;
}) {
  return (
    <>
      <Input.Wrapper label="Days" error={errors.days}>
        <Chip.Group
          multiple
          value={value.days}
          onChange={(days) =>
            onChange({ ...value, days: WEEK_DAYS.filter((day) => days.includes(day)) as WeekDay[] })
          }
        >
          <Group gap={4} mt={4} role="group" aria-label={`${label}: days`}>
            {WEEK_DAYS.map((day) => (
              <Chip key={day} value={day} size="xs" disabled={disabled}>
                {DAY_LABELS[day]}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
      </Input.Wrapper>
      <Group gap="sm" grow>
        <TextInput
          type="time"
          label="From"
          value={value.from}
          disabled={disabled}
          error={errors.from}
          onChange={(event) => onChange({ ...value, from: event.currentTarget.value })}
        />
        <TextInput
          type="time"
          label="To"
          value={value.to === '24:00' ? '' : value.to}
          disabled={disabled}
          error={errors.to}
          onChange={(event) => onChange({ ...value, to: event.currentTarget.value || '24:00' })}
        />
      </Group>
      <Text size="xs" c="dimmed">
        An empty To is the end of the day; a To before From ends on the next day.
      </Text>
    </>
  );
}

/** One window of a list (a schedule's entry, an off window): a named group of fields, removable. */
export function WindowCard({
  label,
  onRemove,
  disabled,
  children,
}: {
  label: string;
  onRemove: () => void;
  disabled: boolean;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="sm" component="fieldset" aria-label={label} style={{ margin: 0 }}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600} size="sm">
            {label}
          </Text>
          <Button
            size="compact-xs"
            variant="subtle"
            color="red"
            leftSection={<FaIcon icon={faTrash} />}
            disabled={disabled}
            aria-label={`Remove ${label.toLowerCase()}`}
            onClick={onRemove}
          >
            Remove
          </Button>
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}
