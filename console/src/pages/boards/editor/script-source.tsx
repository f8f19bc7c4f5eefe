import { Anchor, Select, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { z } from 'zod';
import type { Flow } from '../../../../../src/shared/flow';
import { scriptSchema } from '../../../../../src/shared/script';
import { api } from '../../../api/client';

const PUSHED = '';

const scriptPath = (id: string) => `/scripts/${encodeURIComponent(id)}`;

/**
 * What feeds the flow: data pushed to it, or a script whose result becomes its data. The choice
 * is part of the board's draft (source-edits.ts): the board's one Save makes the chosen script
 * feed this flow and the one that fed it before stop.
 */
export function ScriptSource({
  flow,
  value,
  onChange,
  disabled,
}: {
  flow: Flow;
  /** The script chosen, as edited (null: data pushed to it). */
  value: string | null;
  onChange: (script: string | null) => void;
  disabled: boolean;
}) {
  const scripts = useQuery({ queryKey: ['scripts'], queryFn: () => api(z.array(scriptSchema), '/scripts') });
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
      <Select
        label="Fed by"
        description={value !== flow.source ? 'Changed: saved with the board' : undefined}
        data={options}
        allowDeselect={false}
        disabled={disabled}
        value={value ?? PUSHED}
        onChange={(chosen) => chosen !== null && onChange(chosen === PUSHED ? null : chosen)}
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
