import { notifications } from '@mantine/notifications';

/** A short message in the corner: a change done ("Saved …"), or one that could not be. */
export function tell(message: string, color?: string): void {
  notifications.show({ message, color });
}
