import {
  Alert,
  Button,
  Group,
  NumberInput,
  Select,
  Radio,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  DATA_SOURCE_KINDS,
  dataSourceCreateSchema,
  dataSourceSchema,
  dataSourceUpdateSchema,
  SOURCE_INTERVAL_MAX_SECONDS,
  SOURCE_INTERVAL_MIN_SECONDS,
  SOURCE_TIMEOUT_MAX_SECONDS,
  type DataSource,
} from '../../../../src/shared/data-source';
import { api } from '../../api/client';
import { useCanWrite } from '../../session/session';
import { ErrorAlert } from '../../ui/error-panel';
import { fieldErrorsOf, validateBy } from '../../ui/form';
import { HeadersEditor } from './headers-editor';
import { isHttpKind, kindFields, KIND_WORDS } from './kinds';
import { sourcePath } from './queries';
import { SecretField } from './secret-field';
import {
  createBody,
  durationWords,
  NEW_SOURCE,
  updateBody,
  valuesOf,
  type SourceValues,
} from './source-fields';

const KIND_OPTIONS = DATA_SOURCE_KINDS.map((kind) => ({ value: kind, label: KIND_WORDS[kind].label }));

const AUTH_OPTIONS = [
  { value: 'none', label: 'None' },
  { value: 'basic', label: 'User and password' },
  { value: 'bearer', label: 'Bearer token' },
];

/** A header's own error names it (`headers.X-Key`): the editor shows them under its rows. */
function withHeaderErrors(errors: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(errors)) {
    const key = path.startsWith('headers') ? 'headers' : path;
    out[key] ??= path === key ? String(message) : `${path.slice('headers.'.length)}: ${String(message)}`;
  }
  return out;
}

const secondsWords = (value: number | string) =>
  typeof value === 'number' && value > 0 ? durationWords(value) : null;

/**
 * A source's settings: a new one (its kind chosen here, once) or a saved one (what is changed is
 * sent, the secret only when typed or removed). Shown in a dialog whose Save writes it.
 */
export function SourceForm({
  source,
  onSaved,
  onCancel,
}: {
  source?: DataSource;
  onSaved: (saved: DataSource) => void;
  onCancel: () => void;
}) {
  const canWrite = useCanWrite();
  const queries = useQueryClient();
  const toBody = (values: SourceValues) => (source ? updateBody(source, values) : createBody(values));
  const form = useForm<SourceValues>({
    initialValues: source ? valuesOf(source) : NEW_SOURCE,
    validate: (values) =>
      withHeaderErrors(validateBy(source ? dataSourceUpdateSchema : dataSourceCreateSchema, toBody)(values)),
  });
  const save = useMutation({
    mutationFn: (values: SourceValues) =>
      source
        ? api(dataSourceSchema, sourcePath(source.id), { method: 'PATCH', body: toBody(values) })
        : api(dataSourceSchema, '/data-sources', { method: 'POST', body: toBody(values) }),
    onSuccess: (saved) => {
      queries.setQueryData(['data-sources', saved.id], saved);
      void queries.invalidateQueries({ queryKey: ['data-sources'] });
      onSaved(saved);
    },
    onError: (error) => form.setErrors(withHeaderErrors(fieldErrorsOf(error))),
  });
  const { kind, auth } = form.values;
  const words = KIND_WORDS[kind];
  const fields = kindFields(kind, auth);
  const disabled = !canWrite;
  return (
    <form
      onSubmit={form.onSubmit((values) => save.mutate(values))}
      noValidate
      aria-label={source ? `Settings of ${source.name}` : 'New data source'}
    >
      <Stack>
        {save.error && <ErrorAlert error={save.error} title="Not saved" details={false} />}
        <TextInput
          label="Name"
          description="How the board editor and this page name it, such as Sales database"
          required
          disabled={disabled}
          {...form.getInputProps('name')}
        />
        {source ? (
          <Text size="sm">
            Kind: <strong>{words.label}</strong> (a source keeps its kind)
          </Text>
        ) : (
          <Select
            label="Kind"
            description={words.description}
            data={KIND_OPTIONS}
            allowDeselect={false}
            disabled={disabled}
            {...form.getInputProps('kind')}
          />
        )}
        <TextInput
          label={words.urlLabel}
          description={words.urlHelp}
          placeholder={words.urlPlaceholder}
          required
          spellCheck={false}
          disabled={disabled}
          {...form.getInputProps('url')}
        />
        {fields.auth && (
          <Radio.Group label="Sign-in" {...form.getInputProps('auth')}>
            <Group gap="md" mt={6}>
              {AUTH_OPTIONS.map((option) => (
                <Radio key={option.value} value={option.value} label={option.label} disabled={disabled} />
              ))}
            </Group>
          </Radio.Group>
        )}
        {fields.auth && auth === 'basic' && (
          <TextInput
            label="User name"
            autoComplete="off"
            disabled={disabled}
            {...form.getInputProps('username')}
          />
        )}
        {fields.secretLabel !== null && (
          <SecretField
            label={fields.secretLabel}
            hasSecret={source?.has_secret ?? false}
            value={form.values.secret}
            removed={form.values.removeSecret}
            onChange={(value) => form.setFieldValue('secret', value)}
            onRemoved={(removed) => form.setFieldValue('removeSecret', removed)}
            error={form.errors.secret as string | undefined}
            disabled={disabled}
          />
        )}
        {fields.headers && (
          <HeadersEditor
            rows={form.values.headers}
            onChange={(rows) => form.setFieldValue('headers', rows)}
            error={form.errors.headers as string | undefined}
            disabled={disabled}
          />
        )}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <NumberInput
            label="Refresh every (seconds)"
            description={
              secondsWords(form.values.interval_seconds)
                ? `Asks every ${secondsWords(form.values.interval_seconds)}`
                : `From ${SOURCE_INTERVAL_MIN_SECONDS} seconds to a day`
            }
            min={SOURCE_INTERVAL_MIN_SECONDS}
            max={SOURCE_INTERVAL_MAX_SECONDS}
            allowDecimal={false}
            disabled={disabled}
            {...form.getInputProps('interval_seconds')}
          />
          <NumberInput
            label="Give up after (seconds)"
            description={
              secondsWords(form.values.timeout_seconds)
                ? `Waits at most ${secondsWords(form.values.timeout_seconds)} for an answer`
                : `At most ${SOURCE_TIMEOUT_MAX_SECONDS} seconds`
            }
            min={1}
            max={SOURCE_TIMEOUT_MAX_SECONDS}
            allowDecimal={false}
            disabled={disabled}
            {...form.getInputProps('timeout_seconds')}
          />
        </SimpleGrid>
        <Switch
          label="May reach addresses on this network (private)"
          description={
            isHttpKind(kind)
              ? 'Off, Wallboard only connects to public internet addresses, so that nobody can use a source to look into the network it runs in. Turn it on for a server inside your own network, such as an internal Prometheus.'
              : 'Off, Wallboard only connects to public internet addresses. Turn it on for a database inside your own network (most are).'
          }
          disabled={disabled}
          {...form.getInputProps('allow_private', { type: 'checkbox' })}
        />
        {form.values.allow_private && !source?.allow_private && (
          <Alert
            color="yellow"
            title="Only for servers you trust"
            styles={{ title: { color: 'var(--mantine-color-text)' } }}
          >
            Anyone who can change this source can then make Wallboard connect to machines of this network.
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending} disabled={disabled}>
            {source ? 'Save the source' : 'Add the source'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
