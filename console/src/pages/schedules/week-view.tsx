import { Box, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { WEEK_DAYS, type PowerSchedule, type Schedule } from '../../../../src/shared/schedule';
import { DAY_LABELS, describeWindow, stretchesOf, type DayStretch } from './windows';

/** Mantine palette names, one per playlist in the order they first appear. */
const COLORS = ['blue', 'grape', 'teal', 'orange', 'pink', 'lime', 'cyan', 'violet', 'yellow', 'red'];
const HOUR_HEIGHT = 14;

function Stretch({ stretch, color, label }: { stretch: DayStretch; color: string; label: string }) {
  return (
    <Box
      title={label}
      style={{
        position: 'absolute',
        left: `calc(${(stretch.day * 100) / 7}% + 2px)`,
        width: `calc(${100 / 7}% - 4px)`,
        top: (stretch.from / 60) * HOUR_HEIGHT,
        height: Math.max(2, ((stretch.to - stretch.from) / 60) * HOUR_HEIGHT),
        background: color,
        borderRadius: 'var(--mantine-radius-xs)',
        overflow: 'hidden',
      }}
    />
  );
}

/**
 * The week as the entries lay it out: each entry's windows on a Monday-to-Sunday grid in its
 * playlist's colour (entries of higher priority drawn over lower ones, as they win), and the power
 * schedule's off windows hatched over them. A list in words follows, for everyone.
 */
export function WeekView({
  schedule,
  power,
  playlistName,
}: {
  schedule: Schedule | null;
  power: PowerSchedule | null;
  playlistName: (id: string) => string;
}) {
  const entries = (schedule?.entries ?? [])
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => a.entry.priority - b.entry.priority || a.index - b.index);
  const playlists = [...new Set(schedule?.entries.map((entry) => entry.playlist_id))];
  const colorOf = (id: string) =>
    `var(--mantine-color-${COLORS[playlists.indexOf(id) % COLORS.length]}-filled)`;
  return (
    <Stack gap="xs">
      <Group gap={0} wrap="nowrap" aria-hidden>
        <Box w={36} />
        {WEEK_DAYS.map((day) => (
          <Text key={day} size="xs" ta="center" style={{ flex: 1 }}>
            {DAY_LABELS[day]}
          </Text>
        ))}
      </Group>
      <Group gap={0} wrap="nowrap" align="flex-start" aria-hidden data-testid="week-view">
        <Box w={36} style={{ position: 'relative', height: 24 * HOUR_HEIGHT }}>
          {[0, 6, 12, 18].map((hour) => (
            <Text
              key={hour}
              size="xs"
              c="dimmed"
              style={{ position: 'absolute', top: hour * HOUR_HEIGHT - 6 }}
            >
              {`${String(hour).padStart(2, '0')}:00`}
            </Text>
          ))}
        </Box>
        <Box
          style={{
            position: 'relative',
            flex: 1,
            height: 24 * HOUR_HEIGHT,
            border: '1px solid var(--mantine-color-default-border)',
            borderRadius: 'var(--mantine-radius-sm)',
            backgroundImage: `repeating-linear-gradient(to bottom, transparent 0 ${6 * HOUR_HEIGHT - 1}px, var(--mantine-color-default-border) ${6 * HOUR_HEIGHT - 1}px ${6 * HOUR_HEIGHT}px)`,
          }}
        >
          {entries.flatMap(({ entry, index }) =>
            stretchesOf(entry).map((stretch, part) => (
              <Stretch
                key={`${index}:${part}`}
                stretch={stretch}
                color={colorOf(entry.playlist_id)}
                label={`${playlistName(entry.playlist_id)}: ${describeWindow(entry)}`}
              />
            )),
          )}
          {power?.off.flatMap((window, index) =>
            stretchesOf(window).map((stretch, part) => (
              <Stretch
                key={`off:${index}:${part}`}
                stretch={stretch}
                label={`Off: ${describeWindow(window)}`}
                color="repeating-linear-gradient(45deg, var(--mantine-color-dark-9) 0 4px, var(--mantine-color-gray-6) 4px 8px)"
              />
            )),
          )}
        </Box>
      </Group>
      <Group gap="md">
        {playlists.map((id) => (
          <Group key={id} gap={4}>
            <Box w={12} h={12} style={{ background: colorOf(id), borderRadius: 2 }} />
            <Text size="xs">{playlistName(id)}</Text>
          </Group>
        ))}
        {power && power.off.length > 0 && <Text size="xs">Hatched: off</Text>}
      </Group>
      <VisuallyHidden>
        <ul>
          {schedule?.entries.map((entry, index) => (
            <li
              key={index}
            >{`${playlistName(entry.playlist_id)}: ${describeWindow(entry)}, priority ${entry.priority}`}</li>
          ))}
          {power?.off.map((window, index) => (
            <li key={`off${index}`}>{`Off: ${describeWindow(window)}`}</li>
          ))}
        </ul>
      </VisuallyHidden>
    </Stack>
  );
}
