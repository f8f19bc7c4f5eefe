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
import { Loading } from '../ui/loading';

const BackLink = () => (
  <Anchor component={Link} to="/screens" size="sm">
    ← All screens
  </Anchor>
);

/** One screen: its settings, commands, screenshot, diagnostics, history and proof of play. */
export default function ScreenPage() {
  const tag = useParams().tag ?? '';
  const device = useDevice(tag);
  const navigate = useNavigate();
  const queries = useQueryClient();
  const remove = useMutation({
    mutationFn: () => send(devicePath(tag), { method: 'DELETE' }),
    onSuccess: () => {
      queries.removeQueries({ queryKey: ['devices', tag] });
      tell(`Screen ${tag} deleted`);
      void navigate('/screens');
    },
  });
  if (device.isPending) return <Loading label="Loading the screen" />;
  if (device.error) {
    return (
      <Stack align="flex-start">
        <BackLink />
        <ErrorAlert error={device.error} title={`Screen ${tag} could not be shown`} />
      </Stack>
    );
  }
  const screen = device.data;
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
          <WriteButton
            color="red"
            variant="light"
            onClick={() => void askDelete()}
            loading={remove.isPending}
          >
            Delete the screen
          </WriteButton>
        }
      />
      {remove.error && <ErrorAlert error={remove.error} />}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Stack gap="md">
          <PlayingPanel tag={tag} />
          <ScreenshotPanel tag={tag} name={title} />
          <CommandsPanel tag={tag} online={screen.online} />
        </Stack>
        <Stack gap="md">
          <DeviceForm
            key={`${screen.name}\n${screen.description}\n${screen.playlist_id ?? ''}`}
            device={screen}
          />
          <DiagnosticsPanel tag={tag} ip={screen.last_seen_ip} />
        </Stack>
      </SimpleGrid>
      <SchedulePanel device={screen} />
      <HistoryPanel tag={tag} />
      <PlaysPanel tag={tag} />
    </Stack>
  );
}
