import { faPlus } from '@fortawesome/free-solid-svg-icons';
import { Button, Stack } from '@mantine/core';
import type { PowerSchedule, WeeklyWindow } from '../../../../src/shared/schedule';
import { FaIcon } from '../../ui/fa-icon';
import { entryErrors } from './schedule-editor';
import { WindowCard, WindowFields } from './window-fields';

const NIGHT: WeeklyWindow = {
  days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
  from: '22:00',
  to: '06:00',
};

/** The windows in which the screen is off, each its days and times. Controlled. */
export function PowerEditor({
  value,
  onChange,
  problems,
  disabled,
}: {
  value: PowerSchedule;
  onChange: (power: PowerSchedule) => void;
  problems: Record<string, string>;
  disabled: boolean;
}) {
  // The same paths as a schedule's entries, under `off`.
  const errorsOf = (index: number) =>
    entryErrors(
      Object.fromEntries(
        Object.entries(problems).map(([path, message]) => [path.replace(/^off\./, 'entries.'), message]),
      ),
      index,
    );
  return (
    <Stack gap="sm">
      {value.off.map((window, index) => {
        const label = `Off window ${index + 1}`;
        return (
          <WindowCard
            key={index}
            label={label}
            disabled={disabled}
            onRemove={() => onChange({ off: value.off.filter((_, at) => at !== index) })}
          >
            <WindowFields
              value={window}
              label={label}
              errors={errorsOf(index)}
              disabled={disabled}
              onChange={(next) => onChange({ off: value.off.map((old, at) => (at === index ? next : old)) })}
            />
          </WindowCard>
        );
      })}
      <Button
        variant="default"
        leftSection={<FaIcon icon={faPlus} />}
        disabled={disabled}
        onClick={() => onChange({ off: [...value.off, NIGHT] })}
        style={{ alignSelf: 'flex-start' }}
      >
        Add an off window
      </Button>
    </Stack>
  );
}
