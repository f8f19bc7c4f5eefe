import { Anchor, Select, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { z } from 'zod';
import type { Flow } from '../../../../../src/shared/flow';
import { scriptSchema } from '../../../../../src/shared/script';
import { api, send } from '../../../api/client';
import { ErrorAlert } from '../../../ui/error-panel';

const PUSHED = '';

const scriptPath = (id: string) => `/scripts/${encodeURIComponent(id)}`;

/**
 * What feeds the flow: data pushed to it, or a script whose result becomes its data. Attaching
 * a script makes it feed this flow (`PATCH /scripts/:id {flow_id}`), the one that fed it before
 * stops; saved at once, since it changes the flow, not the board.
 */
export function ScriptSource({ flow, disabled }: { flow: Flow; disabled: boolean }) {
  const queries = useQueryClient();
  const scripts = useQuery({ queryKey: ['scripts'], queryFn: () => api(z.array(scriptSchema), '/scripts') });
  const attach = useMutation({
    mutationFn: async (scriptId: string) => {
      if (flow.source) await send(scriptPath(flow.source), { method: 'PATCH', body: { flow_id: null } });
      if (scriptId !== PUSHED)
        await send(scriptPath(scriptId), { method: 'PATCH', body: { flow_id: flow.id } });
    },
    onSettled: () =>
      Promise.all(['flows', 'scripts'].map((key) => queries.invalidateQueries({ queryKey: [key] }))),
  });
  const feeding = (flowId: string | null) =>
    flowId && flowId !== flow.id ? ' (feeds another flow now)' : '';
  const options = [
    { value: PUSHED, label: 'Data pushed to it (no script)' },
    ...(scripts.data ?? []).map((script) => ({
      value: script.id,
      label: `${script.name}${feeding(script.flow_id)}`,
    })),
  ];
  return (
    <>
      {attach.error && <ErrorAlert error={attach.error} title="The script was not attached" />}
      <Select
        label="Fed by"
        data={options}
        allowDeselect={false}
        disabled={disabled || attach.isPending}
        value={flow.source ?? PUSHED}
        onChange={(value) => value !== null && attach.mutate(value)}
      />
      <Text size="xs" c="dimmed">
        {flow.source ? (
          <Anchor component={Link} to={scriptPath(flow.source)} size="xs" underline="always">
            Open the script
          </Anchor>
        ) : (
          <>
            Or{' '}
            <Anchor component={Link} to="/scripts/new" size="xs" underline="always">
              write a script
            </Anchor>{' '}
            and attach it here.
          </>
        )}
      </Text>
    </>
  );
}
