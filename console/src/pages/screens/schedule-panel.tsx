import { Anchor, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { Device } from '../../../../src/shared/device';
import { useCanWrite } from '../../session/session';
import { PlaySettingsFields } from '../schedules/play-settings';
import { groupsQuery, settingsQuery } from '../schedules/queries';
import { WeekView } from '../schedules/week-view';
import { usePlaylists } from './queries';
import type { ScreenDraft } from './screen-draft';
import { Section } from './section';

const NO_GROUP = '';

/**
 * The screen's group, and when and how it plays: its own schedule, off hours, rotation and time
 * zone, each unset to take its group's (what each comes to now is said beside it). Fields of the
 * page's draft: the group too waits for the page's one Save. What each comes to now is the saved
 * screen's, until it is saved.
 */
export function SchedulePanel({ device, draft }: { device: Device; draft: ScreenDraft }) {
  const canWrite = useCanWrite();
  const playlists = usePlaylists();
  const groups = useQuery(groupsQuery);
  const resolved = useQuery(settingsQuery(device.tag));
  const group = groups.data?.find((candidate) => candidate.id === draft.values.group_id);
  return (
    <Section title="When and how it plays">
      <Stack gap="sm">
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
          disabled={!canWrite}
          value={draft.values.group_id ?? NO_GROUP}
          onChange={(id) => draft.set('group_id', id || null)}
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
        <PlaySettingsFields
          value={draft.values}
          onChange={draft.patch}
          playlists={playlists.data ?? []}
          inherited={resolved.data}
          unsetLabel={group ? `the group’s (${group.name})` : 'none'}
          withPlaylist={false}
          error={draft.error}
          disabled={!canWrite}
        />
      </Stack>
    </Section>
  );
}
