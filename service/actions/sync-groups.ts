import type {
  SyncGroup,
  SyncGroupCreate,
  SyncGroupUpdate,
  SyncMember,
  SyncMemberPut,
  Wall,
} from '../../src/shared/sync';
import type { ServiceContext } from '../context';
import { invalid, notFound } from '../domain/errors';
import type { Emit } from '../realtime/changes';
import { DeviceRepository } from '../repositories/devices';
import { SyncGroupRepository } from '../repositories/sync-groups';
import { announceScreens } from './screen-settings';

/**
 * Sync groups (docs/sync.md). What a screen of a group is told lives in its settings (`sync`), so
 * every change that moves it (the wall, a restart of the timeline, a screen placed or taken out,
 * the group deleted) is announced to the screens concerned as `device.changed`, in the write's
 * transaction, as a group's settings are. Consoles hear of it as a change of groups.
 */

const tell = (emit: Emit, id: string) => emit({ type: 'console', resource: 'groups', id });

export async function createSyncGroup(ctx: ServiceContext, input: SyncGroupCreate): Promise<SyncGroup> {
  return ctx.changes.transaction(async (tx, emit) => {
    const group = await new SyncGroupRepository(tx).create(input, ctx.clock.now());
    tell(emit, group.id);
    return group;
  });
}

/** A cell outside the new wall would leave its screen showing nothing sensible: refused. */
function checkCellsFit(wall: Wall | null, members: SyncMember[]): void {
  if (!wall) return;
  const outside = members.filter(
    (member) =>
      member.column !== null &&
      member.row !== null &&
      (member.column >= wall.columns || member.row >= wall.rows),
  );
  if (outside.length === 0) return;
  throw invalid(
    `screens ${outside.map((member) => member.device_tag).join(', ')} are placed outside a ${wall.columns} x ${wall.rows} wall; move them first`,
    [{ path: 'body.wall', message: 'leaves placed screens outside the wall' }],
  );
}

/** Null when there is no such group. */
export async function updateSyncGroup(
  ctx: ServiceContext,
  id: string,
  patch: SyncGroupUpdate,
): Promise<SyncGroup | null> {
  return ctx.changes.transaction(async (tx, emit) => {
    const repository = new SyncGroupRepository(tx);
    const members = await repository.members(id);
    if (patch.wall !== undefined) checkCellsFit(patch.wall, members);
    const group = await repository.update(id, patch, ctx.clock.now());
    if (!group) return null;
    if (patch.wall !== undefined || patch.restart) {
      announceScreens(
        emit,
        members.map((member) => member.device_tag),
      );
    }
    tell(emit, id);
    return group;
  });
}

/** False when there is no such group; its screens leave it, and are told. */
export async function deleteSyncGroup(ctx: ServiceContext, id: string): Promise<boolean> {
  return ctx.changes.transaction(async (tx, emit) => {
    const repository = new SyncGroupRepository(tx);
    const members = await repository.members(id);
    if (!(await repository.delete(id))) return false;
    announceScreens(
      emit,
      members.map((member) => member.device_tag),
    );
    tell(emit, id);
    return true;
  });
}

async function deviceIdOf(ctx: ServiceContext, tag: string): Promise<string> {
  const device = await new DeviceRepository(ctx.db).findByTag(tag);
  if (!device) throw notFound(`device ${tag}`);
  return device.id;
}

/**
 * Puts a screen in a sync group, at a cell of its wall (a group with a wall needs one, a group
 * without one takes none); out of the sync group it was in. 404 for an unknown group or screen.
 */
export async function placeScreen(
  ctx: ServiceContext,
  groupId: string,
  tag: string,
  cell: SyncMemberPut,
): Promise<SyncMember[]> {
  const deviceId = await deviceIdOf(ctx, tag);
  return ctx.changes.transaction(async (tx, emit) => {
    const repository = new SyncGroupRepository(tx);
    const group = await repository.find(groupId);
    if (!group) throw notFound(`sync group ${groupId}`);
    const { wall } = group;
    const placed = cell.column !== null && cell.row !== null;
    if (!wall && (cell.column !== null || cell.row !== null)) {
      throw invalid('this sync group is no wall: a screen takes no cell in it', [
        { path: 'body.column', message: 'must be null in a group without a wall' },
      ]);
    }
    if (wall && !placed) {
      throw invalid(
        `this sync group is a ${wall.columns} x ${wall.rows} wall: give the screen's column and row`,
        [{ path: cell.column === null ? 'body.column' : 'body.row', message: 'is required on a wall' }],
      );
    }
    if (wall && ((cell.column ?? 0) >= wall.columns || (cell.row ?? 0) >= wall.rows)) {
      throw invalid(`the wall has columns 0 to ${wall.columns - 1} and rows 0 to ${wall.rows - 1}`, [
        {
          path: (cell.column ?? 0) >= wall.columns ? 'body.column' : 'body.row',
          message: 'is outside the wall',
        },
      ]);
    }
    await repository.place(groupId, deviceId, cell);
    announceScreens(emit, [tag]);
    tell(emit, groupId);
    return repository.members(groupId);
  });
}

/** Takes a screen out of the group; 404 when it is not in it. */
export async function removeScreen(ctx: ServiceContext, groupId: string, tag: string): Promise<void> {
  const deviceId = await deviceIdOf(ctx, tag);
  await ctx.changes.transaction(async (tx, emit) => {
    if (!(await new SyncGroupRepository(tx).remove(groupId, deviceId))) {
      throw notFound(`screen ${tag} in sync group ${groupId}`);
    }
    announceScreens(emit, [tag]);
    tell(emit, groupId);
  });
}
