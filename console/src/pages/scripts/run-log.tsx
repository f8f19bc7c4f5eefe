import { Accordion, Badge, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { scriptRunSchema, type ScriptRunOutcome } from '../../../../src/shared/script';
import { api } from '../../api/client';
import { ErrorAlert } from '../../ui/error-panel';
import { TimeAgo } from '../../ui/time';

export const OUTCOME_COLOR: Record<ScriptRunOutcome, string> = {
  ok: 'green',
  error: 'red',
  timeout: 'orange',
  invalid: 'yellow',
};

export function OutcomeBadge({ outcome }: { outcome: ScriptRunOutcome }) {
  return (
    <Badge color={OUTCOME_COLOR[outcome]} variant="dot">
      {outcome}
    </Badge>
  );
}

export const runsQuery = (id: string) => ({
  queryKey: ['scripts', id, 'runs'],
  queryFn: () => api(z.array(scriptRunSchema), `/scripts/${encodeURIComponent(id)}/runs`),
});

/** The script's newest runs (the service keeps 50), newest first and open; live by the `scripts` notice. */
export function RunLog({ scriptId }: { scriptId: string }) {
  const runs = useQuery(runsQuery(scriptId));
  // Until the operator opens or closes one, the newest run is the one shown open.
  const [opened, setOpened] = useState<string[] | null>(null);
  const newest = runs.data?.[0]?.id;
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        Runs
      </Title>
      {runs.error && <ErrorAlert error={runs.error} title="The runs could not be listed" />}
      {runs.data?.length === 0 && <Text c="dimmed">Not run yet.</Text>}
      <Accordion multiple value={opened ?? (newest ? [newest] : [])} onChange={setOpened} variant="contained">
        {runs.data?.map((run) => (
          <Accordion.Item key={run.id} value={run.id} data-testid="script-run">
            <Accordion.Control>
              <Group gap="sm" wrap="wrap">
                <OutcomeBadge outcome={run.outcome} />
                <TimeAgo iso={run.started_at} />
                <Text size="sm" c="dimmed">
                  {run.duration_ms} ms · {run.trigger === 'manual' ? 'run by hand' : 'scheduled'}
                </Text>
              </Group>
            </Accordion.Control>
            <Accordion.Panel>
              <Stack gap="xs">
                {run.error && (
                  <Code block tabIndex={0} color="var(--mantine-color-red-light)" data-testid="run-error">
                    {run.error}
                  </Code>
                )}
                {run.logs.length > 0 ? (
                  <Code block tabIndex={0} data-testid="run-logs">
                    {run.logs.join('\n')}
                  </Code>
                ) : (
                  <Text size="sm" c="dimmed">
                    Nothing logged.
                  </Text>
                )}
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Stack>
  );
}
