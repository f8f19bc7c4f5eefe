import { Button, Tooltip, type ButtonProps } from '@mantine/core';
import type { ComponentPropsWithoutRef } from 'react';
import { useCanWrite } from '../session/session';

export const VIEWER_MESSAGE = 'Viewers can see everything but change nothing: ask an admin.';

type WriteButtonProps = ButtonProps & Omit<ComponentPropsWithoutRef<'button'>, keyof ButtonProps>;

/**
 * A button that changes something: for a viewer it is disabled and says why (the service would
 * refuse anyway). The tooltip needs a focusable wrapper, since a disabled button gets no events.
 */
export function WriteButton(props: WriteButtonProps) {
  const canWrite = useCanWrite();
  if (canWrite) return <Button {...props} />;
  return (
    <Tooltip label={VIEWER_MESSAGE}>
      <span tabIndex={0} aria-label={VIEWER_MESSAGE}>
        <Button {...props} disabled onClick={undefined} />
      </span>
    </Tooltip>
  );
}
