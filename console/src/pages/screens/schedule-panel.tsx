import { Anchor, Select, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { deviceSchema, type Device } from '../../../../src/shared/device';
import { api } from '../../api/client';
import { useCanWrite } from '../../session/session';
import { ErrorAlert } from '../../ui/error-panel';
import { tell } from '../../ui/notify';
import { PlaySettingsForm, type PlaySettings } from '../schedules/play-settings';
import { groupsQuery, settingsQuery } from '../schedules/queries';
import { WeekView } from '../schedules/week-view';
import { devicePath, usePlaylists } from './queries';
import { Section } from './section';

const NO_GROUP = '';

/**
 * The screen's group, and when and how it plays: its own schedule, off hours, rotation and time
 * zone, each unset to take its group's (what each comes to now is said beside it).
 */
export function SchedulePanel({ device }: { device: Device }) {
  const canWrite = useCanWrite();
  const playlists = usePlaylists();
  const groups = useQuery(groupsQuery);
  const resolved = useQuery(settingsQuery(device.tag));
  const queries = useQueryClient();
  const save = useMutation({
    mutationFn: (body: Partial<PlaySettings> & { group_id?: string | null }) =>
      api(deviceSchema, devicePath(device.tag), { method: 'PATCH', body }),
    onSuccess: (saved) => {
      queries.setQueryData(['devices', saved.tag], saved);
      void queries.invalidateQueries({ queryKey: ['devices', saved.tag] });
      tell(`Screen ${saved.name || saved.tag} saved`, 'green');
    },
  });
  const group = groups.data?.find((candidate) => candidate.id === device.group_id);
  const { group_id: _group, playlist_id, schedule, power, rotation, time_zone } = device;
  return (
    <Section title="When and how it plays">
      <Stack gap="sm">
        {save.error && <ErrorAlert error={save.error} title="Not saved" />}
        <Select
          label="Group"
          description={
            group ? (
              <Anchor
                component={Link}
                to={`/groups/${encodeURIComponent(group.id)}`}
                size="xs"
                underline="always"
              >
                Open {group.name}
              </Anchor>
            ) : (
              'A group’s settings apply to this screen where it sets none of its own'
            )
          }
          data={[
            { value: NO_GROUP, label: 'No group' },
            ...(groups.data ?? []).map((g) => ({ value: g.id, label: g.name })),
          ]}
          allowDeselect={false}
          disabled={!canWrite || save.isPending}
          value={device.group_id ?? NO_GROUP}
          onChange={(id) => save.mutate({ group_id: id || null })}
        />
        {resolved.data && (
          <Text size="sm" c="dimmed" data-testid="resolved-settings">
            {resolved.data.schedule ? 'Plays by a schedule' : 'Plays one playlist'}
            {resolved.data.power ? ', off at set hours' : ''}, rotated {resolved.data.rotation}°, time zone{' '}
            {resolved.data.time_zone ?? 'the screen’s own'}.
          </Text>
        )}
        {resolved.data &&
          (resolved.data.sources.schedule === 'group' || resolved.data.sources.power === 'group') && (
            <WeekView
              schedule={resolved.data.schedule}
              power={resolved.data.power}
              playlistName={(id) => playlists.data?.find((option) => option.value === id)?.label ?? id}
            />
          )}
        <PlaySettingsForm
          key={JSON.stringify([schedule, power, rotation, time_zone])}
          initial={{ playlist_id, schedule, power, rotation, time_zone }}
          playlists={playlists.data ?? []}
          inherited={resolved.data}
          unsetLabel={group ? `the group’s (${group.name})` : 'none'}
          withPlaylist={false}
          onSave={({ playlist_id: _playlist, ...settings }) => save.mutate(settings)}
          saving={save.isPending}
          error={save.error}
          disabled={!canWrite}
        />
      </Stack>
    </Section>
  );
}
