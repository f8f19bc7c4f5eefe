import { Button, Modal, TextInput } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { Icon } from '../../../../../renderer/src/icons/icon';
import { Loading } from '../../../ui/loading';
import type { ControlProps } from './control-props';

// The notifications page's picker: the same bundled icons screens draw by name.
const IconPicker = lazy(() => import('../../notifications/icon-pack'));

/** An icon by name: typed, or picked from the bundled set (searchable), drawn beside the name. */
export function IconField({ field, value, onChange, path, problems, disabled, label }: ControlProps) {
  const [picking, setPicking] = useState(false);
  const name = typeof value === 'string' ? value : '';
  const shown = label ?? field.label;
  const set = (next: string) => onChange(next === '' && !field.required ? undefined : next);
  return (
    <>
      <TextInput
        label={shown}
        description={field.help}
        withAsterisk={field.required}
        error={problems.get(path)}
        value={name}
        disabled={disabled}
        leftSection={name ? <Icon name={name} size={16} /> : undefined}
        rightSectionWidth="auto"
        rightSection={
          <Button
            size="compact-xs"
            variant="light"
            mr={4}
            aria-label={`Choose the ${shown.toLowerCase()}`}
            disabled={disabled}
            onClick={() => setPicking(true)}
          >
            Choose
          </Button>
        }
        onChange={(event) => set(event.currentTarget.value)}
      />
      <Modal opened={picking} onClose={() => setPicking(false)} title={`${shown}: choose an icon`} size="lg">
        <Suspense fallback={<Loading label="Loading the icons" />}>
          <IconPicker
            value={name}
            disabled={disabled}
            onChange={(picked) => {
              set(picked);
              setPicking(false);
            }}
          />
        </Suspense>
      </Modal>
    </>
  );
}
