import { Button, Group, Modal, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useBeforeUnload, useBlocker } from 'react-router';

/**
 * Keeps unsaved edits from being lost by leaving: another page of the console asks first; closing
 * or reloading the tab gets the browser's own question.
 */
export function LeaveGuard({ dirty, what }: { dirty: boolean; what: string }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useBeforeUnload((event) => {
    if (dirty) event.preventDefault();
  });
  // Saved or dropped while asked: nothing is left to lose.
  useEffect(() => {
    if (blocker.state === 'blocked' && !dirty) blocker.proceed();
  }, [blocker, dirty]);
  return (
    <Modal
      opened={blocker.state === 'blocked'}
      onClose={() => blocker.reset?.()}
      title="Leave without saving?"
    >
      <Text size="sm">{what} has unsaved changes: leaving loses them.</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
          Stay and keep editing
        </Button>
        <Button color="red" onClick={() => blocker.proceed?.()}>
          Leave and lose the changes
        </Button>
      </Group>
    </Modal>
  );
}
