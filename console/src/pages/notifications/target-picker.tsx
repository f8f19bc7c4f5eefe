import { Select } from '@mantine/core';
import type { Channel } from '../../../../src/shared/channel';
import type { DeviceOverview } from '../../../../src/shared/device';
import type { Group } from '../../../../src/shared/group';
import { WHERE_CHOICES, type TargetFields } from './target';

interface TargetPickerProps {
  values: TargetFields;
  /** The form's props of a field (value, onChange, error). */
  inputProps: (field: keyof TargetFields) => object;
  channels: readonly Channel[] | undefined;
  groups: readonly Group[] | undefined;
  screens: readonly DeviceOverview[] | undefined;
  disabled: boolean;
}

/**
 * Where a notification goes, in plain words: the screens showing a channel (their boards use it),
 * the screens of a group, one screen, or every screen; then the one it names, by name.
 */
export function TargetPicker({ values, inputProps, channels, groups, screens, disabled }: TargetPickerProps) {
  return (
    <>
      <Select
        label="Send to"
        data={WHERE_CHOICES}
        allowDeselect={false}
        disabled={disabled}
        {...inputProps('where')}
      />
      {values.where === 'channel' && (
        <Select
          label="Channel"
          description="Every screen whose board on screen uses this channel shows the banner"
          searchable
          data={(channels ?? []).map((channel) => ({
            value: channel.id,
            label: `${channel.name} (${channel.tag})`,
          }))}
          allowDeselect={false}
          disabled={disabled}
          {...inputProps('channel_id')}
        />
      )}
      {values.where === 'group' && (
        <Select
          label="Group"
          description="Each screen of the group shows the banner, whatever it plays"
          placeholder="Choose a group"
          searchable
          data={(groups ?? []).map((group) => ({ value: group.id, label: group.name }))}
          allowDeselect={false}
          disabled={disabled}
          {...inputProps('group_id')}
        />
      )}
      {values.where === 'screen' && (
        <Select
          label="Screen"
          description="The screen shows the banner, whatever it plays"
          placeholder="Choose a screen"
          searchable
          data={(screens ?? []).map((screen) => ({
            value: screen.tag,
            label: screen.name ? `${screen.name} (${screen.tag})` : screen.tag,
          }))}
          allowDeselect={false}
          disabled={disabled}
          {...inputProps('device_tag')}
        />
      )}
    </>
  );
}
