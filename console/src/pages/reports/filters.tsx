import { Group, SegmentedControl, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { libraryUrlOf } from '../../../../src/shared/media';
import { mediaQuery } from '../media/media-query';
import { boardsQuery, screensQuery } from '../playlists/queries';
import { groupsQuery } from '../schedules/queries';
import type { ReportFilters } from './queries';
import { PRESETS, presetDays, type Preset } from './range';

interface Option {
  value: string;
  label: string;
}

const byLabel = (a: Option, b: Option) => a.label.localeCompare(b.label);

/** The choices of each list, by name: what an operator knows them by. */
function useOptions() {
  const screens = useQuery(screensQuery);
  const groups = useQuery(groupsQuery);
  const boards = useQuery(boardsQuery);
  const media = useQuery(mediaQuery);
  return {
    screens: (screens.data ?? [])
      .map((screen) => ({ value: screen.tag, label: screen.name || screen.tag }))
      .sort(byLabel),
    groups: (groups.data ?? []).map((group) => ({ value: group.id, label: group.name })).sort(byLabel),
    boards: (boards.data ?? []).map((board) => ({ value: board.id, label: board.name })).sort(byLabel),
    media: (media.data?.media ?? [])
      .map((medium) => ({ value: libraryUrlOf(medium.id), label: medium.name }))
      .sort(byLabel),
  };
}

interface FiltersProps {
  filters: ReportFilters;
  preset: Preset;
  onChange: (filters: ReportFilters, preset: Preset) => void;
}

/** The days (a preset or two dates) and, optionally, one screen, group, board or medium. */
export function Filters({ filters, preset, onChange }: FiltersProps) {
  const options = useOptions();
  const phone = useMediaQuery('(max-width: 30em)') ?? false;
  const set = (change: Partial<ReportFilters>) => onChange({ ...filters, ...change }, preset);
  const choose = (label: string, data: Option[], value: string | null, key: keyof ReportFilters) => (
    <Select
      label={label}
      placeholder="All"
      data={data}
      value={value}
      onChange={(chosen) => set({ [key]: chosen })}
      searchable
      clearable
      nothingFoundMessage="None by that name"
    />
  );
  return (
    <Stack gap="sm">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <SegmentedControl
          aria-label="Days"
          data={PRESETS.map(({ value, label, short }) => ({ value, label: phone ? short : label }))}
          fullWidth={phone}
          w={phone ? '100%' : undefined}
          value={preset}
          onChange={(value) => {
            const chosen = value as Preset;
            const range = chosen === 'custom' ? filters.range : presetDays(chosen, new Date());
            onChange({ ...filters, range }, chosen);
          }}
        />
        {preset === 'custom' && (
          <Group gap="sm" wrap="nowrap">
            <TextInput
              type="date"
              label="From"
              value={filters.range.first}
              max={filters.range.last}
              onChange={(event) =>
                event.currentTarget.value &&
                set({ range: { ...filters.range, first: event.currentTarget.value } })
              }
            />
            <TextInput
              type="date"
              label="To"
              value={filters.range.last}
              min={filters.range.first}
              onChange={(event) =>
                event.currentTarget.value &&
                set({ range: { ...filters.range, last: event.currentTarget.value } })
              }
            />
          </Group>
        )}
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
        {choose('Screen', options.screens, filters.deviceTag, 'deviceTag')}
        {choose('Group', options.groups, filters.groupId, 'groupId')}
        {choose('Board', options.boards, filters.boardId, 'boardId')}
        {choose('Medium', options.media, filters.url, 'url')}
      </SimpleGrid>
    </Stack>
  );
}
