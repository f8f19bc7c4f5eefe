import { Button, Group, Radio, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import {
  ALERT_DESTINATION_KINDS,
  alertDestinationCreateSchema,
  alertDestinationSchema,
  type AlertDestination,
  type AlertDestinationKind,
} from '../../../../src/shared/alert';
import { api } from '../../api/client';
import { ErrorAlert } from '../../ui/error-panel';
import { fieldErrorsOf, validateBy } from '../../ui/form';
import { destinationBody, destinationFieldErrors, newSecret, type DestinationFields } from './fields';
import { KIND_LABEL } from './words';

const KIND_HELP: Record<AlertDestinationKind, string> = {
  webhook: 'A signed JSON message to a URL of your own (a monitoring or ticket system)',
  email: 'A message to one or more addresses',
  slack: 'A message in a Slack channel',
  teams: 'A message in a Microsoft Teams channel',
};

/** Where an operator finds the URL of each chat's incoming webhook. */
const URL_HELP: Record<
  'webhook' | 'slack' | 'teams',
  { label: string; description: string; placeholder: string }
> = {
  webhook: {
    label: 'URL',
    description: 'Wallboard sends each alert and recovery there (HTTP POST, JSON)',
    placeholder: 'https://ops.example.com/wallboard',
  },
  slack: {
    label: 'Incoming webhook URL',
    description:
      'In Slack: the channel’s Incoming Webhooks app, "Add to Slack"; it starts with https://hooks.slack.com/',
    placeholder: 'https://hooks.slack.com/services/…',
  },
  teams: {
    label: 'Incoming webhook URL',
    description: 'In Teams: the channel’s Workflows, "Post to a channel when a webhook request is received"',
    placeholder: 'https://….webhook.office.com/…',
  },
};

/**
 * Adds a destination, with the fields of its kind. A webhook's secret is generated here and
 * offered (it can be replaced by one's own); `onAdded` gets it, since the service never shows it
 * again.
 */
export function DestinationForm({
  onAdded,
}: {
  onAdded: (destination: AlertDestination, secret: string | null) => void;
}) {
  const form = useForm<DestinationFields>({
    initialValues: { kind: 'webhook', name: '', url: '', secret: newSecret(), to: '' },
    validate: (values) =>
      destinationFieldErrors(validateBy(alertDestinationCreateSchema, destinationBody)(values), values),
  });
  const add = useMutation({
    mutationFn: (values: DestinationFields) =>
      api(alertDestinationSchema, '/alert-destinations', { method: 'POST', body: destinationBody(values) }),
    onSuccess: (added, values) => onAdded(added, values.kind === 'webhook' ? values.secret : null),
    onError: (error) => form.setErrors(destinationFieldErrors(fieldErrorsOf(error), form.getValues())),
  });
  const { kind } = form.values;
  return (
    <form onSubmit={form.onSubmit((values) => add.mutate(values))} noValidate aria-label="New destination">
      <Stack>
        {add.error && <ErrorAlert error={add.error} details={false} />}
        <Radio.Group label="Kind" {...form.getInputProps('kind')}>
          <Stack gap="xs" mt={6}>
            {ALERT_DESTINATION_KINDS.map((value) => (
              <Radio key={value} value={value} label={KIND_LABEL[value]} description={KIND_HELP[value]} />
            ))}
          </Stack>
        </Radio.Group>
        <TextInput
          label="Name"
          description="Optional: how the rules and the history name it, such as NOC or Night shift"
          maxLength={255}
          {...form.getInputProps('name')}
        />
        {kind === 'email' ? (
          <Textarea
            label="Addresses"
            description="One a line, or separated by commas; up to 20"
            placeholder="ops@example.com"
            autosize
            minRows={2}
            {...form.getInputProps('to')}
          />
        ) : (
          <TextInput
            label={URL_HELP[kind].label}
            description={URL_HELP[kind].description}
            placeholder={URL_HELP[kind].placeholder}
            type="url"
            {...form.getInputProps('url')}
          />
        )}
        {kind === 'webhook' && (
          <Stack gap={4}>
            <TextInput
              label="Secret"
              description="Each message is signed with it (x-wallboard-signature); your receiver checks the signature with the same secret. Generated for you, or paste your own (16 characters or more)."
              autoComplete="off"
              spellCheck={false}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              {...form.getInputProps('secret')}
            />
            <Group>
              <Button
                variant="subtle"
                size="compact-sm"
                onClick={() => form.setFieldValue('secret', newSecret())}
              >
                Generate another secret
              </Button>
            </Group>
            <Text size="xs" c="dimmed">
              The secret is shown once more after adding, to copy; after that, never again.
            </Text>
          </Stack>
        )}
        <Button type="submit" loading={add.isPending}>
          Add the destination
        </Button>
      </Stack>
    </form>
  );
}
