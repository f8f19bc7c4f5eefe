import { Button, Tooltip, type ButtonProps } from '@mantine/core';
import type { ComponentPropsWithoutRef } from 'react';
import { useWriteRefusal } from '../session/session';

type WriteButtonProps = ButtonProps & Omit<ComponentPropsWithoutRef<'button'>, keyof ButtonProps>;

/**
 * A button that changes something: for a role that may not (a viewer) it is disabled and says why (the service would
 * refuse anyway). The tooltip needs a focusable wrapper, since a disabled button gets no events.
 */
export function WriteButton(props: WriteButtonProps) {
  const refusal = useWriteRefusal();
  if (refusal === null) return <Button {...props} />;
  return (
    <Tooltip label={refusal}>
      <span tabIndex={0} aria-label={refusal}>
        <Button {...props} disabled onClick={undefined} />
      </span>
    </Tooltip>
  );
}
