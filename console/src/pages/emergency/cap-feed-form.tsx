import { Select, Stack, TagsInput, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  CAP_AREAS_MAX,
  CAP_FEED_NAME_MAX,
  capFeedCreateSchema,
  capFeedSchema,
  type CapSeverity,
} from '../../../../src/shared/cap-feed';
import { api } from '../../api/client';
import { useCanWrite } from '../../session/session';
import { ErrorAlert } from '../../ui/error-panel';
import { fieldErrorsOf, validateBy } from '../../ui/form';
import { tell } from '../../ui/notify';
import { WriteButton } from '../../ui/write-button';
import { WhereFields } from './where-fields';
import { targetField, targetOf, type WhereValues } from './where';

/** The severities in words, gravest first: each takes the alerts of its level and above. */
export const SEVERITY_CHOICES: { value: CapSeverity; label: string }[] = [
  { value: 'Extreme', label: 'Extreme only' },
  { value: 'Severe', label: 'Severe and extreme' },
  { value: 'Moderate', label: 'Moderate and above' },
  { value: 'Minor', label: 'Minor and above' },
  { value: 'Unknown', label: 'Every alert' },
];

const EVERY = [
  { value: '30', label: 'Every 30 seconds' },
  { value: '60', label: 'Every minute' },
  { value: '300', label: 'Every 5 minutes' },
  { value: '900', label: 'Every 15 minutes' },
  { value: '3600', label: 'Every hour' },
];

interface FeedFields extends WhereValues {
  url: string;
  name: string;
  min_severity: CapSeverity;
  areas: string[];
  every: string;
}

const toBody = (values: FeedFields) => ({
  url: values.url.trim(),
  name: values.name.trim() || undefined,
  target: targetOf(values),
  min_severity: values.min_severity,
  areas: values.areas,
  poll_seconds: Number(values.every),
});

const INITIAL: FeedFields = {
  url: '',
  name: '',
  where: 'all',
  group_id: '',
  device_tag: '',
  min_severity: 'Severe',
  areas: [],
  every: '60',
};

/**
 * The form that adds a CAP feed: its address, where its alerts go, how grave and where they must
 * be. Each field says in plain words what it does; the service's refusals land on their field.
 */
export function CapFeedForm() {
  const canWrite = useCanWrite();
  const queries = useQueryClient();
  const form = useForm<FeedFields>({
    initialValues: INITIAL,
    validate: (values) => {
      const errors = validateBy(capFeedCreateSchema, toBody)(values);
      const { target, ...rest } = Object.fromEntries(
        Object.entries(errors).map(([path, message]) => [
          path.startsWith('target') ? 'target' : path.startsWith('areas') ? 'areas' : path,
          message,
        ]),
      );
      return target ? { ...rest, [targetField(values)]: 'Choose where its alerts go' } : rest;
    },
  });
  const add = useMutation({
    mutationFn: (values: FeedFields) =>
      api(capFeedSchema, '/cap-feeds', { method: 'POST', body: toBody(values) }),
    onSuccess: (feed) => {
      tell(`The feed "${feed.name}" is added: it is checked within seconds`, 'green');
      form.reset();
      void queries.invalidateQueries({ queryKey: ['overrides'] });
    },
    onError: (error) => {
      const errors = fieldErrorsOf(error);
      const target = Object.keys(errors).find((path) => path.startsWith('target'));
      form.setErrors(
        target
          ? { ...errors, [target.endsWith('group_id') ? 'group_id' : 'device_tag']: errors[target] }
          : errors,
      );
    },
  });
  return (
    <form onSubmit={form.onSubmit((values) => add.mutate(values))} noValidate aria-label="New alert feed">
      <Stack>
        <Title order={3} size="h5">
          Add a feed
        </Title>
        {add.error && <ErrorAlert error={add.error} />}
        <TextInput
          label="Feed address"
          description="The web address of a CAP alert, or of an Atom or RSS feed of CAP alerts, as your alerting authority publishes it"
          placeholder="https://alerts.example.org/cap/feed.atom"
          required
          disabled={!canWrite}
          {...form.getInputProps('url')}
        />
        <TextInput
          label="Name"
          description="Shown as who raised its messages. Left empty: the address's site."
          maxLength={CAP_FEED_NAME_MAX}
          disabled={!canWrite}
          {...form.getInputProps('name')}
        />
        <WhereFields form={form} label="Show its alerts on" disabled={!canWrite} />
        <Select
          label="Which alerts"
          description="By the severity the alert gives itself"
          data={SEVERITY_CHOICES}
          allowDeselect={false}
          disabled={!canWrite}
          {...form.getInputProps('min_severity')}
        />
        <TagsInput
          label="Areas"
          description="Only alerts for one of these areas: a place name the alert's area contains, or its area code. Press Enter after each. Leave empty for every area."
          placeholder="Harbour"
          maxTags={CAP_AREAS_MAX}
          clearable
          disabled={!canWrite}
          {...form.getInputProps('areas')}
        />
        <Select
          label="Check it"
          data={EVERY}
          allowDeselect={false}
          disabled={!canWrite}
          {...form.getInputProps('every')}
        />
        <Text size="xs" c="dimmed">
          An alert the feed raises stays on screen until the feed cancels or replaces it, it expires, or it
          leaves the feed; you can also clear it by hand above.
        </Text>
        <WriteButton type="submit" loading={add.isPending}>
          Add feed
        </WriteButton>
      </Stack>
    </form>
  );
}
