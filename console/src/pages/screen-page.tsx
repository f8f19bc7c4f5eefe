import { Anchor, Group, SimpleGrid, Stack } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { send } from '../api/client';
import { confirmAction } from '../ui/confirm';
import { ErrorAlert } from '../ui/error-panel';
import { PageHeader } from '../ui/page-header';
import { TimeAgo } from '../ui/time';
import { WriteButton } from '../ui/write-button';
import { CommandsPanel } from './screens/commands-panel';
import { DeviceForm } from './screens/device-form';
import { DiagnosticsPanel } from './screens/diagnostics-panel';
import { HistoryPanel } from './screens/history-panel';
import { tell } from '../ui/notify';
import { OnlineBadge } from './screens/online-badge';
import { PlayingPanel } from './screens/playing-panel';
import { PlaysPanel } from './screens/plays-panel';
import { devicePath, useDevice } from './screens/queries';
import { SchedulePanel } from './screens/schedule-panel';
import { ScreenshotPanel } from './screens/screenshot-panel';
import { ScreenReleasesPanel } from './releases/screen-releases';
import { Loading } from '../ui/loading';
import { DraftStatus } from '../ui/draft-status';
import { useScreenDraft } from './screens/screen-draft';
import type { Device } from '../../../src/shared/device';

const BackLink = () => (
  <Anchor component={Link} to="/screens" size="sm">
    ← All screens
  </Anchor>
);

/**
 * One screen: its settings, commands, screenshot, diagnostics, history and proof of play. Its
 * settings (name, description, playlist, group, when and how it plays) are one draft with one
 * Save; commands (identify, restart, screenshot, …) and Delete are buttons that act at once.
 */
export default function ScreenPage() {
  const tag = useParams().tag ?? '';
  const device = useDevice(tag);
  if (device.isPending) return <Loading label="Loading the screen" />;
  if (device.error) {
    return (
      <Stack align="flex-start">
        <BackLink />
        <ErrorAlert error={device.error} title={`Screen ${tag} could not be shown`} />
      </Stack>
    );
  }
  return <Screen key={tag} screen={device.data} />;
}

function Screen({ screen }: { screen: Device }) {
  const tag = screen.tag;
  const navigate = useNavigate();
  const queries = useQueryClient();
  const draft = useScreenDraft(screen);
  const remove = useMutation({
    mutationFn: () => send(devicePath(tag), { method: 'DELETE' }),
    onSuccess: () => {
      draft.drop();
      queries.removeQueries({ queryKey: ['devices', tag] });
      tell(`Screen ${tag} deleted`);
      void navigate('/screens');
    },
  });
  const title = screen.name || screen.tag;
  const askDelete = async () => {
    const sure = await confirmAction({
      title: `Delete ${title}?`,
      body: 'The screen loses its token at once and stops getting content; to use it again, pair it anew. Its history, screenshot and plays are deleted with it.',
      confirm: 'Delete the screen',
    });
    if (sure) remove.mutate();
  };
  return (
    <Stack gap="md">
      <BackLink />
      <PageHeader
        title={title}
        description={
          <>
            <Group gap="xs" component="span">
              <OnlineBadge online={screen.online} />
              <span>
                {screen.tag} · last seen <TimeAgo iso={screen.last_seen_date} />
              </span>
            </Group>
            {screen.description}
          </>
        }
        actions={
          <>
            <WriteButton onClick={draft.save} loading={draft.saving} disabled={!draft.dirty || draft.invalid}>
              Save
            </WriteButton>
            <WriteButton
              color="red"
              variant="light"
              onClick={() => void askDelete()}
              loading={remove.isPending}
            >
              Delete the screen
            </WriteButton>
          </>
        }
      />
      {remove.error && <ErrorAlert error={remove.error} />}
      <DraftStatus
        what="This screen"
        dirty={draft.dirty}
        until="The screen plays by its saved settings until you save."
        onDrop={draft.drop}
        error={draft.error}
      />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Stack gap="md">
          <PlayingPanel tag={tag} />
          <ScreenshotPanel tag={tag} name={title} />
          <CommandsPanel tag={tag} online={screen.online} />
        </Stack>
        <Stack gap="md">
          <DeviceForm draft={draft} />
          <DiagnosticsPanel tag={tag} ip={screen.last_seen_ip} />
          <ScreenReleasesPanel tag={tag} />
        </Stack>
      </SimpleGrid>
      <SchedulePanel device={screen} draft={draft} />
      <HistoryPanel tag={tag} />
      <PlaysPanel tag={tag} />
    </Stack>
  );
}
