import type { Group, GroupCreate, GroupUpdate } from '../../src/shared/group';
import type { ServiceContext } from '../context';
import { GroupRepository } from '../repositories/groups';
import { announceScreens, checkPlaylistsNamed, checkSchedule, setsAnySetting } from './screen-settings';

/**
 * Groups of screens. A group's settings apply to its screens where a screen sets none of its
 * own, so a change of them is announced to every screen of the group as `device.changed` (the
 * event a screen already re-reads its settings on), in the write's transaction.
 */

export async function createGroup(ctx: ServiceContext, input: GroupCreate): Promise<Group> {
  checkSchedule(input.schedule);
  // No screen is in it yet: nothing to announce to devices; the consoles list it.
  return ctx.changes.transaction(async (tx, emit) => {
    await checkPlaylistsNamed(tx, input);
    const group = await new GroupRepository(tx).create(input, ctx.clock.now());
    emit({ type: 'console', resource: 'groups', id: group.id });
    return group;
  });
}

/** Null when there is no such group; what the patch leaves out is left as it is. */
export async function updateGroup(
  ctx: ServiceContext,
  id: string,
  patch: GroupUpdate,
): Promise<Group | null> {
  checkSchedule(patch.schedule);
  const groups = new GroupRepository(ctx.db);
  if (patch.name === undefined && !setsAnySetting(patch)) return groups.find(id);
  return ctx.changes.transaction(async (tx, emit) => {
    await checkPlaylistsNamed(tx, patch);
    const repository = new GroupRepository(tx);
    const group = await repository.update(id, patch, ctx.clock.now());
    if (!group) return null;
    // A new name changes nothing a screen shows.
    if (setsAnySetting(patch)) announceScreens(emit, await repository.memberTags(id));
    emit({ type: 'console', resource: 'groups', id });
    return group;
  });
}

/** False when there is no such group; its screens are left in none, and are told. */
export async function deleteGroup(ctx: ServiceContext, id: string): Promise<boolean> {
  return ctx.changes.transaction(async (tx, emit) => {
    const repository = new GroupRepository(tx);
    // Locked first, so no screen joins between the question of who is in it and the delete.
    if (!(await repository.lock(id))) return false;
    const members = await repository.memberTags(id);
    await repository.delete(id);
    announceScreens(emit, members);
    emit({ type: 'console', resource: 'groups', id });
    return true;
  });
}
