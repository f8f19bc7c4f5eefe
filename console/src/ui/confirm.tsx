import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';

/** Asks before something that cannot be undone; resolves true when confirmed. */
export function confirmAction({
  title,
  body,
  confirm,
}: {
  title: string;
  body: ReactNode;
  /** The button's label: says what happens ("Revoke the token"), never just "OK". */
  confirm: string;
}): Promise<boolean> {
  return new Promise((resolve) => {
    modals.openConfirmModal({
      title,
      children: typeof body === 'string' ? <Text size="sm">{body}</Text> : body,
      labels: { confirm, cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    });
  });
}
