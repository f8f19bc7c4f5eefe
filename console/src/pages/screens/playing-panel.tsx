import { Alert, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { playingSchema } from '../../../../src/shared/playing';
import { api } from '../../api/client';
import { ErrorAlert } from '../../ui/error-panel';
import { TimeAgo } from '../../ui/time';
import { devicePath } from './queries';
import { Section } from './section';

/**
 * What the screen should show now by its rules (override, power window, wake, schedule,
 * playlist) beside what it last said it shows: the same truth the Screens list gives. Kept live
 * by the screen's notices (its key is under `devices`).
 */
export function PlayingPanel({ tag }: { tag: string }) {
  const playing = useQuery({
    queryKey: ['devices', tag, 'playing'],
    queryFn: () => api(playingSchema, `${devicePath(tag)}/playing`),
  });
  if (playing.error) return <ErrorAlert error={playing.error} title="What it plays could not be read" />;
  if (!playing.data) return null;
  const { expected, reported, agrees, detail } = playing.data;
  return (
    <Section title="Now">
      <Text size="sm">
        Should show: <b>{expected.kind === 'nothing' ? 'nothing (no playlist)' : expected.summary}</b>
      </Text>
      {reported ? (
        <Text size="sm">
          Shows: {reported.described} (reported <TimeAgo iso={reported.at} />)
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          It reports nothing while it is offline.
        </Text>
      )}
      {agrees === false && (
        <Alert color="red" title="The screen does not show what it should" role="alert">
          {detail && detail.charAt(0).toUpperCase() + detail.slice(1)}
          {reported?.since && (
            <>
              , since <TimeAgo iso={reported.since} />
            </>
          )}
          . It may still be fetching its new content, or its clock may be wrong; a restart (under Commands)
          makes it fetch everything again.
        </Alert>
      )}
    </Section>
  );
}
