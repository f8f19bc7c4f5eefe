import { MultiSelect } from '@mantine/core';
import type { Device } from '../../../../src/shared/device';
import { useWriteRefusal } from '../../session/session';

/**
 * The screens that play this playlist: part of the playlist's draft, saved with its items by the
 * page's one Save (assignment-draft.ts). A screen added leaves the playlist it played; one
 * removed is left with none.
 */
export function AssignScreens({
  screens,
  value,
  onChange,
  disabled,
}: {
  screens: readonly Device[];
  value: readonly string[];
  onChange: (tags: string[]) => void;
  disabled: boolean;
}) {
  const refusal = useWriteRefusal();
  const canWrite = refusal === null;
  return (
    <MultiSelect
      label="Screens that play it"
      description={
        refusal ??
        'Saved with the items. A screen added here stops playing its previous playlist; one removed plays nothing.'
      }
      placeholder={value.length > 0 ? undefined : canWrite ? 'Pick screens' : 'No screen plays it'}
      searchable
      data={screens.map((screen) => ({
        value: screen.tag,
        label: screen.name ? `${screen.name} (${screen.tag})` : screen.tag,
      }))}
      value={[...value]}
      disabled={!canWrite || disabled}
      onChange={onChange}
      nothingFoundMessage="No such screen"
    />
  );
}
