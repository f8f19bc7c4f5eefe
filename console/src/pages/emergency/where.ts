import type { Group as ScreenGroup } from '../../../../src/shared/group';
import type { OverrideTarget } from '../../../../src/shared/override';

/** Where an override or a feed's alerts go, in words: "Group Lobby", "Screen hall-1", "Every screen". */
export function whereOf(target: OverrideTarget, groups: readonly ScreenGroup[] | undefined): string {
  if ('group_id' in target)
    return `Group ${groups?.find((group) => group.id === target.group_id)?.name ?? target.group_id}`;
  if ('device_tag' in target) return `Screen ${target.device_tag}`;
  return 'Every screen';
}
