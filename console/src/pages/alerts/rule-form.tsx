import { Alert, Button, Group, MultiSelect, NumberInput, Select, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  ALERT_EVENTS,
  ALERT_SCRIPT_FAILURES,
  alertRuleCreateSchema,
  alertRuleSchema,
  type AlertEvent,
  type AlertRule,
} from '../../../../src/shared/alert';
import { api } from '../../api/client';
import { ErrorAlert } from '../../ui/error-panel';
import { fieldErrorsOf, validateBy } from '../../ui/form';
import { groupsQuery } from '../schedules/queries';
import { useOverview } from '../screens/queries';
import { ruleBody, ruleFieldErrors, TARGET_CHOICES, type RuleFields, type TargetChoice } from './fields';
import { destinationsQuery, scriptsQuery } from './queries';
import { destinationLabel, EVENT_LABEL } from './words';

const UNITS = [
  { value: 'seconds', label: 'seconds' },
  { value: 'minutes', label: 'minutes' },
  { value: 'hours', label: 'hours' },
];

const CHOICE_LABEL: Record<TargetChoice, string> = {
  all: 'Every screen, including screens added later',
  group: 'The screens of a group',
  screen: 'One screen',
  script: 'One script',
};

/** What each event's time is, on its field, and what the form says under it. */
const EVENT_TEXT: Record<AlertEvent, { time: string; tell: string; note: string }> = {
  'device.offline': {
    time: 'Offline for',
    tell: 'Each gets one message when screens go offline, and one when they are all back',
    note: "Counted from a screen's last sign of life. Screens that go offline together make one message: it goes out about 15 seconds after the first of them reaches this time.",
  },
  'device.failing': {
    time: 'An item failed within the last',
    tell: 'Each gets one message when screens fail to show items, and one when they all show them again',
    note: 'A screen counts while it reports an item it could not show (a video that does not play, an image that does not download) that failed within this time. Pick longer than a playlist takes to come round. Screens that fail together make one message.',
  },
  'script.failing': {
    time: '',
    tell: 'Each gets one message when a script keeps failing, and one when it runs well again',
    note: 'A script counts once this many of its runs in a row failed (an error, a time-out, a result that does not fit its flow). Its next good run ends it.',
  },
  'node.unwritable': {
    time: 'Cannot write for',
    tell: 'Each gets one message when the service cannot write its data, and one when it can again',
    note: 'When the service has been unable to save anything (its disk full, say) for this long. The message comes straight from the service, which cannot record it then; the history shows it once it can save again.',
  },
};

/**
 * Adds a rule: what to watch (screens offline or failing, a script failing, the service unable to
 * write), the fields that event needs, whom to tell. Checked as typed by the schema the service
 * checks with, its messages put on the fields they are about (fields.ts).
 */
export function RuleForm({ onAdded }: { onAdded: (rule: AlertRule) => void }) {
  const groups = useQuery(groupsQuery);
  const screens = useOverview();
  const scripts = useQuery(scriptsQuery);
  const destinations = useQuery(destinationsQuery);
  const form = useForm<RuleFields>({
    initialValues: {
      event: 'device.offline',
      amount: 5,
      unit: 'minutes',
      which: 'all',
      group_id: '',
      device_tag: '',
      script_id: '',
      failures: ALERT_SCRIPT_FAILURES.default,
      destination_ids: [],
    },
    validate: (values) => ruleFieldErrors(validateBy(alertRuleCreateSchema, ruleBody)(values), values),
    onValuesChange: (values) => {
      // A target of another event (a group, for a script rule) falls back to "every".
      if (!TARGET_CHOICES[values.event].includes(values.which)) form.setFieldValue('which', 'all');
    },
  });
  const add = useMutation({
    mutationFn: (values: RuleFields) =>
      api(alertRuleSchema, '/alert-rules', { method: 'POST', body: ruleBody(values) }),
    onSuccess: onAdded,
    onError: (error) => form.setErrors(ruleFieldErrors(fieldErrorsOf(error), form.getValues())),
  });
  const none = destinations.data?.length === 0;
  const { event, which } = form.values;
  const text = EVENT_TEXT[event];
  const choices = TARGET_CHOICES[event];
  return (
    <form onSubmit={form.onSubmit((values) => add.mutate(values))} noValidate aria-label="New rule">
      <Stack>
        {add.error && <ErrorAlert error={add.error} details={false} />}
        <Select
          label="Alert when"
          data={ALERT_EVENTS.map((value) => ({ value, label: EVENT_LABEL[value] }))}
          allowDeselect={false}
          {...form.getInputProps('event')}
        />
        {choices.length > 1 && (
          <Select
            label={event === 'script.failing' ? 'Which scripts' : 'Which screens'}
            data={choices.map((value) => ({
              value,
              label:
                value === 'all' && event === 'script.failing'
                  ? 'Every script, including scripts added later'
                  : CHOICE_LABEL[value],
            }))}
            allowDeselect={false}
            {...form.getInputProps('which')}
          />
        )}
        {which === 'group' && (
          <Select
            label="Group"
            placeholder="Choose a group"
            searchable
            nothingFoundMessage="No such group"
            data={(groups.data ?? []).map((group) => ({ value: group.id, label: group.name }))}
            {...form.getInputProps('group_id')}
          />
        )}
        {which === 'screen' && (
          <Select
            label="Screen"
            placeholder="Choose a screen"
            searchable
            nothingFoundMessage="No such screen"
            data={(screens.data ?? []).map((screen) => ({
              value: screen.tag,
              label:
                screen.name && screen.name !== screen.tag ? `${screen.name} (${screen.tag})` : screen.tag,
            }))}
            {...form.getInputProps('device_tag')}
          />
        )}
        {which === 'script' && (
          <Select
            label="Script"
            placeholder="Choose a script"
            searchable
            nothingFoundMessage="No such script"
            data={(scripts.data ?? []).map((script) => ({ value: script.id, label: script.name }))}
            {...form.getInputProps('script_id')}
          />
        )}
        {event === 'script.failing' ? (
          <NumberInput
            label="Failed runs in a row"
            min={ALERT_SCRIPT_FAILURES.min}
            max={ALERT_SCRIPT_FAILURES.max}
            allowDecimal={false}
            {...form.getInputProps('failures')}
          />
        ) : (
          <Group gap="xs" align="flex-start" wrap="nowrap">
            <NumberInput
              label={text.time}
              min={0}
              decimalScale={2}
              style={{ flex: 1 }}
              {...form.getInputProps('amount')}
            />
            <Select label="Unit" data={UNITS} allowDeselect={false} w={120} {...form.getInputProps('unit')} />
          </Group>
        )}
        {none ? (
          <Alert color="yellow" title="No destination yet">
            Add a destination first (above): a rule needs somewhere to send its alerts.
          </Alert>
        ) : (
          <MultiSelect
            label="Tell"
            description={text.tell}
            placeholder="Choose destinations"
            data={(destinations.data ?? []).map((destination) => ({
              value: destination.id,
              label: destinationLabel(destination),
            }))}
            searchable
            {...form.getInputProps('destination_ids')}
          />
        )}
        <Text size="xs" c="dimmed">
          {text.note}
        </Text>
        <Button type="submit" loading={add.isPending} disabled={none}>
          Add the rule
        </Button>
      </Stack>
    </form>
  );
}
