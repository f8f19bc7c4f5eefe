import { Alert, Button, Group, MultiSelect, NumberInput, Select, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery } from '@tanstack/react-query';
import { alertRuleCreateSchema, alertRuleSchema, type AlertRule } from '../../../../src/shared/alert';
import { api } from '../../api/client';
import { ErrorAlert } from '../../ui/error-panel';
import { fieldErrorsOf, validateBy } from '../../ui/form';
import { groupsQuery } from '../schedules/queries';
import { useOverview } from '../screens/queries';
import { ruleBody, ruleFieldErrors, type RuleFields } from './fields';
import { destinationsQuery } from './queries';
import { destinationLabel } from './words';

const UNITS = [
  { value: 'seconds', label: 'seconds' },
  { value: 'minutes', label: 'minutes' },
  { value: 'hours', label: 'hours' },
];

/**
 * Adds a rule: which screens, offline for how long, whom to tell. Checked as typed by the schema
 * the service checks with, its messages put on the fields they are about (fields.ts).
 */
export function RuleForm({ onAdded }: { onAdded: (rule: AlertRule) => void }) {
  const groups = useQuery(groupsQuery);
  const screens = useOverview();
  const destinations = useQuery(destinationsQuery);
  const form = useForm<RuleFields>({
    initialValues: {
      amount: 5,
      unit: 'minutes',
      which: 'all',
      group_id: '',
      device_tag: '',
      destination_ids: [],
    },
    validate: (values) => ruleFieldErrors(validateBy(alertRuleCreateSchema, ruleBody)(values), values),
  });
  const add = useMutation({
    mutationFn: (values: RuleFields) =>
      api(alertRuleSchema, '/alert-rules', { method: 'POST', body: ruleBody(values) }),
    onSuccess: onAdded,
    onError: (error) => form.setErrors(ruleFieldErrors(fieldErrorsOf(error), form.getValues())),
  });
  const none = destinations.data?.length === 0;
  return (
    <form onSubmit={form.onSubmit((values) => add.mutate(values))} noValidate aria-label="New rule">
      <Stack>
        {add.error && <ErrorAlert error={add.error} details={false} />}
        <Select
          label="Which screens"
          data={[
            { value: 'all', label: 'Every screen, including screens added later' },
            { value: 'group', label: 'The screens of a group' },
            { value: 'screen', label: 'One screen' },
          ]}
          allowDeselect={false}
          {...form.getInputProps('which')}
        />
        {form.values.which === 'group' && (
          <Select
            label="Group"
            placeholder="Choose a group"
            searchable
            nothingFoundMessage="No such group"
            data={(groups.data ?? []).map((group) => ({ value: group.id, label: group.name }))}
            {...form.getInputProps('group_id')}
          />
        )}
        {form.values.which === 'screen' && (
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
        <Group gap="xs" align="flex-start" wrap="nowrap">
          <NumberInput
            label="Offline for"
            min={0}
            decimalScale={2}
            style={{ flex: 1 }}
            {...form.getInputProps('amount')}
          />
          <Select label="Unit" data={UNITS} allowDeselect={false} w={120} {...form.getInputProps('unit')} />
        </Group>
        {none ? (
          <Alert color="yellow" title="No destination yet">
            Add a destination first (above): a rule needs somewhere to send its alerts.
          </Alert>
        ) : (
          <MultiSelect
            label="Tell"
            description="Each gets one message when screens go offline, and one when they are all back"
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
          Counted from a screen's last sign of life. Screens that go offline together make one message: it
          goes out about 15 seconds after the first of them reaches this time.
        </Text>
        <Button type="submit" loading={add.isPending} disabled={none}>
          Add the rule
        </Button>
      </Stack>
    </form>
  );
}
