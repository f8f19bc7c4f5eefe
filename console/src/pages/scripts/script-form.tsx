import { Group, Input, NumberInput, Select, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, type ReactNode } from 'react';
import { z } from 'zod';
import { flowSchema } from '../../../../src/shared/flow';
import {
  SCRIPT_TIMEOUT_DEFAULT,
  SCRIPT_TIMEOUT_MAX,
  scriptCreateSchema,
  type Script,
} from '../../../../src/shared/script';
import { api } from '../../api/client';
import { useCanWrite } from '../../session/session';
import { validateBy } from '../../ui/form';

const CodeEditor = lazy(() => import('./code-editor'));

export interface ScriptFields {
  name: string;
  code: string;
  interval: string;
  timeout_seconds: number | string;
  enabled: boolean;
  flow_id: string;
}

const NO_FLOW = 'none';

export const NEW_SCRIPT: ScriptFields = {
  name: '',
  code: "console.log('hello');\nreturn { value: 42 };\n",
  interval: '1m',
  timeout_seconds: SCRIPT_TIMEOUT_DEFAULT,
  enabled: true,
  flow_id: NO_FLOW,
};

export const fieldsOf = (script: Script): ScriptFields => ({
  name: script.name,
  code: script.code,
  interval: script.interval,
  timeout_seconds: script.timeout_seconds,
  enabled: script.enabled,
  flow_id: script.flow_id ?? NO_FLOW,
});

/** The body of both the create and the update: every field, `flow_id: null` for none. */
export const toBody = (values: ScriptFields) => ({
  name: values.name,
  code: values.code,
  interval: values.interval.trim(),
  timeout_seconds: values.timeout_seconds === '' ? undefined : Number(values.timeout_seconds),
  enabled: values.enabled,
  flow_id: values.flow_id === NO_FLOW ? null : values.flow_id,
});

export function useScriptForm(initial: ScriptFields) {
  return useForm<ScriptFields>({ initialValues: initial, validate: validateBy(scriptCreateSchema, toBody) });
}

type ScriptForm = ReturnType<typeof useScriptForm>;

/** The script's fields and its code; `actions` (save, run) go under them. */
export function ScriptFormFields({ form, actions }: { form: ScriptForm; actions: ReactNode }) {
  const canWrite = useCanWrite();
  const flows = useQuery({ queryKey: ['flows'], queryFn: () => api(z.array(flowSchema), '/flows') });
  const codeError = form.errors.code;
  return (
    <Stack>
      <TextInput label="Name" disabled={!canWrite} {...form.getInputProps('name')} />
      <Input.Wrapper
        label="Code"
        description="The body of an async function: return the flow's data"
        error={codeError}
        labelElement="div"
      >
        <Suspense fallback={<Input component="div">Loading the editor…</Input>}>
          <CodeEditor
            label="Code"
            value={form.values.code}
            onChange={(code) => form.setFieldValue('code', code)}
            readOnly={!canWrite}
            invalid={Boolean(codeError)}
          />
        </Suspense>
      </Input.Wrapper>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput
          label="Interval"
          description='"30s", "5m", "1h30m"'
          disabled={!canWrite}
          {...form.getInputProps('interval')}
        />
        <NumberInput
          label="Timeout"
          description="Seconds one run may take"
          min={1}
          max={SCRIPT_TIMEOUT_MAX}
          allowDecimal={false}
          disabled={!canWrite}
          {...form.getInputProps('timeout_seconds')}
        />
        <Select
          label="Flow it feeds"
          description="What it returns becomes this flow's data"
          data={[
            { value: NO_FLOW, label: 'No flow' },
            ...(flows.data ?? []).map((flow) => ({ value: flow.id, label: `${flow.tag} (${flow.variant})` })),
          ]}
          searchable
          allowDeselect={false}
          disabled={!canWrite}
          {...form.getInputProps('flow_id')}
        />
      </SimpleGrid>
      <Switch
        label="Enabled: runs on its interval (a disabled script can still be run by hand)"
        disabled={!canWrite}
        {...form.getInputProps('enabled', { type: 'checkbox' })}
      />
      <Group>{actions}</Group>
    </Stack>
  );
}
