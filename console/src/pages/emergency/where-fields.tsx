import { Select } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { groupsQuery } from '../schedules/queries';
import { useOverview } from '../screens/queries';
import type { WhereValues } from './where';

const CHOICES = [
  { value: 'all', label: 'Every screen' },
  { value: 'group', label: 'The screens of a group' },
  { value: 'screen', label: 'One screen' },
];

/** Where an override or a feed's alerts go: every screen, a group's, or one, with its picker. */
export function WhereFields<T extends WhereValues>({
  form,
  label,
  disabled,
}: {
  form: UseFormReturnType<T>;
  label: string;
  disabled: boolean;
}) {
  const groups = useQuery(groupsQuery);
  const screens = useOverview();
  return (
    <>
      <Select
        label={label}
        data={CHOICES}
        allowDeselect={false}
        disabled={disabled}
        {...form.getInputProps('where')}
      />
      {form.values.where === 'group' && (
        <Select
          label="Group"
          placeholder="Choose a group"
          searchable
          data={(groups.data ?? []).map((group) => ({ value: group.id, label: group.name }))}
          disabled={disabled}
          {...form.getInputProps('group_id')}
        />
      )}
      {form.values.where === 'screen' && (
        <Select
          label="Screen"
          placeholder="Choose a screen"
          searchable
          data={(screens.data ?? []).map((screen) => ({
            value: screen.tag,
            label: screen.name ? `${screen.name} (${screen.tag})` : screen.tag,
          }))}
          disabled={disabled}
          {...form.getInputProps('device_tag')}
        />
      )}
    </>
  );
}
