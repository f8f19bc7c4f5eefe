import type { FormErrors } from '@mantine/form';
import type { NotificationTarget, TargetedNotificationCreate } from '../../../../src/shared/notification';

/** Where the operator sends a notification, in the form's terms: one choice, then what it names. */
export type Where = 'channel' | 'group' | 'screen' | 'all';

export interface TargetFields {
  where: Where;
  channel_id: string;
  group_id: string;
  device_tag: string;
}

export const WHERE_CHOICES: { value: Where; label: string }[] = [
  { value: 'channel', label: 'The screens showing a channel' },
  { value: 'group', label: 'The screens of a group' },
  { value: 'screen', label: 'One screen' },
  { value: 'all', label: 'Every screen' },
];

/** The body's `target` for the form's choice. */
export function targetOf(values: TargetFields): TargetedNotificationCreate['target'] {
  switch (values.where) {
    case 'channel':
      return { channel_id: values.channel_id };
    case 'group':
      return { group_id: values.group_id };
    case 'screen':
      return { device_tag: values.device_tag };
    case 'all':
      return { all: true };
  }
}

/** The field of the form that names the target (the choice itself for every screen). */
const FIELD: Record<Where, keyof TargetFields> = {
  channel: 'channel_id',
  group: 'group_id',
  screen: 'device_tag',
  all: 'where',
};

const CHOOSE: Record<Where, string> = {
  channel: 'Choose a channel',
  group: 'Choose a group',
  screen: 'Choose a screen',
  all: 'Choose where the notification goes',
};

/**
 * Errors of the body's `target` (`target`, `target.group_id`, ...; the schema's or the service's)
 * put on the one select the operator sees: "choose one" when it is empty, else what was said.
 */
export function withTargetErrors(errors: FormErrors, values: TargetFields): FormErrors {
  const moved: FormErrors = {};
  let target: FormErrors[string] | undefined;
  for (const [path, message] of Object.entries(errors)) {
    if (path === 'target' || path.startsWith('target.')) target ??= message;
    else moved[path] = message;
  }
  if (target === undefined) return moved;
  const field = FIELD[values.where];
  return { ...moved, [field]: values[field] === '' ? CHOOSE[values.where] : target };
}

/** Names of what a target may name, for saying where one went in plain words. */
export interface TargetNames {
  channels: ReadonlyMap<string, string>;
  groups: ReadonlyMap<string, string>;
}

/** Where a notification went, in words: "Channel Alerts", "Group Lobby", "Screen lobby-a", "Every screen". */
export function whereWords(target: NotificationTarget, names: TargetNames): string {
  if ('channel_id' in target) return `Channel ${names.channels.get(target.channel_id) ?? target.channel_id}`;
  if ('group_id' in target) return `Group ${names.groups.get(target.group_id) ?? target.group_id}`;
  if ('device_tag' in target) return `Screen ${target.device_tag}`;
  return 'Every screen';
}

/** A listed notification's target; the service always answers it, a channel's `channel_id` says it too. */
export function targetOfListed(notification: {
  channel_id: string | null;
  target?: NotificationTarget;
}): NotificationTarget {
  if (notification.target) return notification.target;
  return notification.channel_id === null ? { all: true } : { channel_id: notification.channel_id };
}

/** Which screens the form's choice reaches now, in words, for the preview. */
export function reachWords(
  values: TargetFields,
  names: TargetNames,
  screens: readonly { group_id: string | null }[] | undefined,
): string {
  const count = (n: number) => `${n} screen${n === 1 ? '' : 's'}`;
  switch (values.where) {
    case 'channel': {
      const name = names.channels.get(values.channel_id);
      return name ? `the screens whose board on screen uses the channel ${name}` : 'the screens of a channel';
    }
    case 'group': {
      const name = names.groups.get(values.group_id);
      if (!name) return 'the screens of a group';
      return `the ${count((screens ?? []).filter((screen) => screen.group_id === values.group_id).length)} of ${name}`;
    }
    case 'screen':
      return values.device_tag ? `the screen ${values.device_tag}` : 'one screen';
    case 'all':
      return screens ? `every screen (${count(screens.length)})` : 'every screen';
  }
}
