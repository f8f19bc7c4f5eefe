import { faPlus } from '@fortawesome/free-solid-svg-icons';
import { Button, Group, NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { Schedule, ScheduleEntry } from '../../../../src/shared/schedule';
import { FaIcon } from '../../ui/fa-icon';
import { WindowCard, WindowFields, type FieldErrors } from './window-fields';

/** The entries as the page numbers them (from 1) where a message names them by path (from 0). */
const asShown = (message: string) =>
  message.replace(/\bentries\.(\d+)/g, (_, index: string) => `entry ${Number(index) + 1}`);

/** The problems of one entry, by field: `entries.2.from` → { from }, `entries.2` → { entry }. */
export function entryErrors(problems: Record<string, string>, index: number): FieldErrors {
  const errors: FieldErrors = {};
  for (const [path, message] of Object.entries(problems)) {
    const match = new RegExp(`^entries\\.${index}(?:\\.(\\w+)|$)`).exec(path);
    if (match) errors[match[1] ?? 'entry'] ??= asShown(message);
  }
  return errors;
}

const NEW_ENTRY = (playlistId: string): ScheduleEntry => ({
  playlist_id: playlistId,
  days: ['mon', 'tue', 'wed', 'thu', 'fri'],
  from: '08:00',
  to: '18:00',
  start_date: null,
  end_date: null,
  priority: 0,
});

/**
 * A schedule's entries, each a card (its playlist, days, times, dates and priority), and its
 * default playlist. Controlled; `problems` are the schedule's checks by path, shown on the fields.
 */
export function ScheduleEditor({
  value,
  onChange,
  playlists,
  problems,
  disabled,
}: {
  value: Schedule;
  onChange: (schedule: Schedule) => void;
  playlists: { value: string; label: string }[];
  problems: Record<string, string>;
  disabled: boolean;
}) {
  const setEntry = (index: number, entry: ScheduleEntry) =>
    onChange({ ...value, entries: value.entries.map((old, at) => (at === index ? entry : old)) });
  return (
    <Stack gap="sm">
      {value.entries.map((entry, index) => {
        const errors = entryErrors(problems, index);
        const label = `Entry ${index + 1}`;
        return (
          <WindowCard
            key={index}
            label={label}
            disabled={disabled}
            onRemove={() => onChange({ ...value, entries: value.entries.filter((_, at) => at !== index) })}
          >
            {errors.entry && (
              <Text size="sm" c="var(--mantine-color-error)" role="alert">
                {errors.entry}
              </Text>
            )}
            <Select
              label="Playlist"
              data={playlists}
              searchable
              allowDeselect={false}
              disabled={disabled}
              value={entry.playlist_id}
              error={errors.playlist_id}
              onChange={(id) => id && setEntry(index, { ...entry, playlist_id: id })}
            />
            <WindowFields
              value={entry}
              label={label}
              errors={errors}
              disabled={disabled}
              onChange={(window) => setEntry(index, { ...entry, ...window })}
            />
            <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
              <TextInput
                type="date"
                label="From the day"
                value={entry.start_date ?? ''}
                disabled={disabled}
                error={errors.start_date}
                onChange={(event) =>
                  setEntry(index, { ...entry, start_date: event.currentTarget.value || null })
                }
              />
              <TextInput
                type="date"
                label="To the day"
                value={entry.end_date ?? ''}
                disabled={disabled}
                error={errors.end_date}
                onChange={(event) =>
                  setEntry(index, { ...entry, end_date: event.currentTarget.value || null })
                }
              />
              <NumberInput
                label="Priority"
                description="Higher wins"
                min={0}
                max={1000}
                allowDecimal={false}
                disabled={disabled}
                value={entry.priority}
                error={errors.priority}
                onChange={(priority) => setEntry(index, { ...entry, priority: Number(priority) || 0 })}
              />
            </SimpleGrid>
          </WindowCard>
        );
      })}
      <Group justify="space-between" align="flex-end">
        <Button
          variant="default"
          leftSection={<FaIcon icon={faPlus} />}
          disabled={disabled || playlists.length === 0}
          onClick={() =>
            onChange({ ...value, entries: [...value.entries, NEW_ENTRY(playlists[0]?.value ?? '')] })
          }
        >
          Add an entry
        </Button>
        <Select
          label="Otherwise"
          description="When no entry is in force"
          data={[{ value: '', label: 'The playlist of the screen or group' }, ...playlists]}
          allowDeselect={false}
          disabled={disabled}
          value={value.default_playlist_id ?? ''}
          error={problems.default_playlist_id}
          onChange={(id) => onChange({ ...value, default_playlist_id: id || null })}
        />
      </Group>
    </Stack>
  );
}
