import { Alert, Group, SegmentedControl, Select, Stack, Switch, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import type { z } from 'zod';
import type { screenSettingFields } from '../../../../src/shared/group';
import {
  powerScheduleSchema,
  ROTATIONS,
  scheduleSchema,
  type PowerSchedule,
  type Rotation,
  type Schedule,
} from '../../../../src/shared/schedule';
import { scheduleProblems } from '../../../../src/shared/schedule-rules';
import type { ScreenSettings } from '../../../../src/shared/screen-settings';
import { ApiError } from '../../api/client';
import { PowerEditor } from './power-editor';
import { ScheduleEditor } from './schedule-editor';
import { WeekView } from './week-view';

export type PlaySettings = {
  [K in keyof typeof screenSettingFields]: z.infer<(typeof screenSettingFields)[K]>;
};

const NOT_SET = '';
const EMPTY_SCHEDULE: Schedule = { entries: [], default_playlist_id: null };
const EMPTY_POWER: PowerSchedule = { off: [] };
const ZONES = Intl.supportedValuesOf('timeZone');

/** The problems of a schema's answer and of the schedule's rules, by path under the setting. */
function problemsOf(schedule: Schedule | null, power: PowerSchedule | null) {
  const found: { schedule: Record<string, string>; power: Record<string, string> } = {
    schedule: {},
    power: {},
  };
  if (schedule) {
    const parsed = scheduleSchema.safeParse(schedule);
    for (const issue of parsed.error?.issues ?? []) found.schedule[issue.path.join('.')] ??= issue.message;
    if (parsed.success)
      for (const problem of scheduleProblems(parsed.data)) found.schedule[problem.path] ??= problem.message;
  }
  for (const issue of (power && powerScheduleSchema.safeParse(power).error?.issues) || [])
    found.power[issue.path.join('.')] ??= issue.message;
  return found;
}

/** A refusal's details under `body.<setting>.`, by the path under it. */
function refusedUnder(error: unknown, setting: string): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const prefix = `body.${setting}.`;
  return Object.fromEntries(
    error.details
      .filter((d) => d.path.startsWith(prefix))
      .map((d) => [d.path.slice(prefix.length), d.message]),
  );
}

/** Whether the settings have problems of their own (checked as typed) that keep them from a save. */
export function settingsInvalid({ schedule, power }: Pick<PlaySettings, 'schedule' | 'power'>): boolean {
  const problems = problemsOf(schedule, power);
  return Object.keys(problems.schedule).length + Object.keys(problems.power).length > 0;
}

/**
 * What a screen or a group plays and how: its playlist, a schedule (with the week it makes),
 * the hours it is off, its rotation and time zone. Each may be left unset: a screen then takes
 * its group's, a group the default; `inherited` says what an unset setting comes to. Controlled,
 * with no Save of its own: the page's draft holds the values and its one Save writes them.
 */
export function PlaySettingsFields({
  value: values,
  onChange,
  playlists,
  inherited,
  unsetLabel,
  error,
  disabled,
  withPlaylist = true,
}: {
  value: PlaySettings;
  /** The settings changed, to go into the page's draft. */
  onChange: (changed: Partial<PlaySettings>) => void;
  /** False where the playlist is set elsewhere on the page (a screen's own settings). */
  withPlaylist?: boolean;
  playlists: { value: string; label: string }[];
  /** For a screen: its resolved settings, to say what each unset setting comes to. */
  inherited?: ScreenSettings;
  /** What an unset setting means here: "the group's" (a screen), "none" (a group). */
  unsetLabel: string;
  /** The page's last failed save, whose refusals under `schedule` and `power` are shown on their fields. */
  error: unknown;
  disabled: boolean;
}) {
  const set = <K extends keyof PlaySettings>(key: K, value: PlaySettings[K]) =>
    onChange({ [key]: value } as Pick<PlaySettings, K>);
  const problems = useMemo(() => problemsOf(values.schedule, values.power), [values.schedule, values.power]);
  const scheduleProblemsFound = { ...problems.schedule, ...refusedUnder(error, 'schedule') };
  const powerProblemsFound = { ...problems.power, ...refusedUnder(error, 'power') };
  const invalid = Object.keys(problems.schedule).length + Object.keys(problems.power).length > 0;
  const nameOf = (id: string) => playlists.find((option) => option.value === id)?.label ?? id;
  const from = (setting: keyof ScreenSettings['sources']) =>
    !inherited || inherited.sources[setting] === 'screen'
      ? ''
      : inherited.sources[setting] === 'group'
        ? ' (now its group’s)'
        : ' (now the default)';
  return (
    <Stack gap="md" role="group" aria-label="What it plays">
      {withPlaylist && (
        <Select
          label="Playlist"
          description={`Plays when no schedule decides${from('playlist_id')}`}
          data={[{ value: NOT_SET, label: `Not set: ${unsetLabel}` }, ...playlists]}
          searchable
          allowDeselect={false}
          disabled={disabled}
          value={values.playlist_id ?? NOT_SET}
          onChange={(id) => set('playlist_id', id || null)}
        />
      )}
      <Group gap="md" align="flex-end" wrap="wrap">
        <Stack gap={4}>
          <Text size="sm" fw={500} id="rotation-label">
            Rotation{from('rotation')}
          </Text>
          <SegmentedControl
            aria-labelledby="rotation-label"
            disabled={disabled}
            value={values.rotation === null ? NOT_SET : String(values.rotation)}
            onChange={(value) => set('rotation', value === NOT_SET ? null : (Number(value) as Rotation))}
            data={[
              { value: NOT_SET, label: 'Not set' },
              ...ROTATIONS.map((d) => ({ value: String(d), label: `${d}°` })),
            ]}
          />
        </Stack>
        <Select
          label={`Time zone${from('time_zone')}`}
          data={[
            {
              value: NOT_SET,
              label: `Not set: ${unsetLabel === 'none' ? "the screen's own" : unsetLabel}`,
            },
            ...ZONES,
          ]}
          searchable
          allowDeselect={false}
          disabled={disabled}
          value={values.time_zone ?? NOT_SET}
          onChange={(zone) => set('time_zone', zone || null)}
          style={{ flex: 1, minWidth: 220 }}
        />
      </Group>
      <Title order={3} size="h5">
        Schedule
      </Title>
      <Switch
        label={`Play by a schedule${from('schedule')}`}
        disabled={disabled}
        checked={values.schedule !== null}
        onChange={(event) => set('schedule', event.currentTarget.checked ? EMPTY_SCHEDULE : null)}
      />
      {values.schedule && (
        <ScheduleEditor
          value={values.schedule}
          onChange={(schedule) => set('schedule', schedule)}
          playlists={playlists}
          problems={scheduleProblemsFound}
          disabled={disabled}
        />
      )}
      <Title order={3} size="h5">
        Power
      </Title>
      <Switch
        label={`Turn the screen off at set hours${from('power')}`}
        disabled={disabled}
        checked={values.power !== null}
        onChange={(event) => set('power', event.currentTarget.checked ? EMPTY_POWER : null)}
      />
      {values.power && (
        <PowerEditor
          value={values.power}
          onChange={(power) => set('power', power)}
          problems={powerProblemsFound}
          disabled={disabled}
        />
      )}
      {(values.schedule || values.power) && (
        <WeekView schedule={values.schedule} power={values.power} playlistName={nameOf} />
      )}
      {invalid && (
        <Alert color="red" role="status">
          Some of the schedule needs fixing before it can be saved: see the fields marked.
        </Alert>
      )}
    </Stack>
  );
}
