import type { Group as ScreenGroup } from '../../../../src/shared/group';
import type { OverrideTarget } from '../../../../src/shared/override';

/** Where an override or a feed's alerts go, in words: "Group Lobby", "Screen hall-1", "Every screen". */
export function whereOf(target: OverrideTarget, groups: readonly ScreenGroup[] | undefined): string {
  if ('group_id' in target)
    return `Group ${groups?.find((group) => group.id === target.group_id)?.name ?? target.group_id}`;
  if ('device_tag' in target) return `Screen ${target.device_tag}`;
  return 'Every screen';
}

/** Where, as the emergency forms hold it: a choice, and the group or screen it names. */
export interface WhereValues {
  where: 'all' | 'group' | 'screen';
  group_id: string;
  device_tag: string;
}

export function targetOf(values: WhereValues): OverrideTarget {
  if (values.where === 'group') return { group_id: values.group_id };
  if (values.where === 'screen') return { device_tag: values.device_tag };
  return { all: true };
}

/** The field that carries the error of a target left unchosen: the group's, the screen's, or the choice. */
export const targetField = (values: WhereValues): keyof WhereValues =>
  values.where === 'group' ? 'group_id' : values.where === 'screen' ? 'device_tag' : 'where';
