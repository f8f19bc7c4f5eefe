import { Group, Select, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deviceReleasesSchema, type DeviceReleases, type ReleaseKind } from '../../../../src/shared/release';
import { api, send } from '../../api/client';
import { useCanWrite, WriteAreaProvider } from '../../session/session';
import { ErrorAlert } from '../../ui/error-panel';
import { tell } from '../../ui/notify';
import { TimeAgo } from '../../ui/time';
import { Section } from '../screens/section';
import { deviceReleasesQuery, KIND_LABELS, releasesQuery } from './queries';

const FOLLOW = 'follow';

const OUTCOMES = {
  downloading: 'downloading',
  installed: 'installed',
  failed: 'failed',
  rolled_back: 'rolled back',
} as const;

/** The version a screen runs of a kind: the shell's by its heartbeat, the web player's by its last install. */
function runningOf(state: DeviceReleases, kind: ReleaseKind): string {
  if (kind === 'shell' && state.app_version) return state.app_version;
  const report = state.reports[kind];
  return report?.outcome === 'installed' ? report.version : 'not reported yet';
}

/** One kind's line: what runs, what is offered, the last report, the pin. */
function KindRow({ tag, kind, state }: { tag: string; kind: ReleaseKind; state: DeviceReleases }) {
  const canWrite = useCanWrite();
  const queries = useQueryClient();
  const releases = useQuery({ ...releasesQuery, select: (all) => all.filter((one) => one.kind === kind) });
  const pin = useMutation({
    mutationFn: async (releaseId: string) => {
      const path = `/devices/${encodeURIComponent(tag)}/release-pins/${kind}`;
      if (releaseId === FOLLOW) return send(path, { method: 'DELETE' });
      await api(deviceReleasesSchema, path, { method: 'PUT', body: { release_id: releaseId } });
    },
    onSuccess: (_nothing, releaseId) =>
      tell(releaseId === FOLLOW ? `${tag} follows the rollouts again` : `${tag} is pinned`, 'green'),
    onSettled: () => queries.invalidateQueries({ queryKey: ['releases'] }),
  });
  const offered = state.offered[kind];
  const report = state.reports[kind];
  return (
    <Stack gap={4}>
      <Text fw={600} size="sm">
        {KIND_LABELS[kind]}
      </Text>
      <Text size="sm">
        Running: {runningOf(state, kind)}. Offered: {offered ? offered.version : 'nothing new'}
        {state.pins[kind] ? ' (pinned)' : ''}.
      </Text>
      {report && (
        <Text
          size="xs"
          c={report.outcome === 'failed' || report.outcome === 'rolled_back' ? 'red' : 'dimmed'}
        >
          Last report: {report.version} {OUTCOMES[report.outcome]} <TimeAgo iso={report.reported_at} />
          {report.detail ? `: ${report.detail}` : ''}
        </Text>
      )}
      <Group gap="xs">
        <Select
          aria-label={`Pin ${KIND_LABELS[kind]}`}
          size="xs"
          w={240}
          data={[
            { value: FOLLOW, label: 'Follow the rollouts' },
            ...(releases.data ?? []).map((one) => ({
              value: one.id,
              label: `Pinned to ${one.version} (${one.channel})`,
            })),
          ]}
          value={state.pins[kind] ?? FOLLOW}
          onChange={(value) => value && value !== (state.pins[kind] ?? FOLLOW) && pin.mutate(value)}
          allowDeselect={false}
          disabled={!canWrite || pin.isPending}
        />
      </Group>
      {pin.error && <ErrorAlert error={pin.error} />}
    </Stack>
  );
}

/** The screen's player software: versions, offers, reports and pins (docs/updates.md). */
export function ScreenReleasesPanel({ tag }: { tag: string }) {
  const state = useQuery(deviceReleasesQuery(tag));
  return (
    // Pins are an admin's, whatever the screen page's own area.
    <WriteAreaProvider area="admin">
      <Section title="Player software">
        {state.error && <ErrorAlert error={state.error} title="Its releases could not be read" />}
        {state.data && (
          <Stack gap="md">
            <KindRow tag={tag} kind="shell" state={state.data} />
            <KindRow tag={tag} kind="web" state={state.data} />
          </Stack>
        )}
      </Section>
    </WriteAreaProvider>
  );
}
