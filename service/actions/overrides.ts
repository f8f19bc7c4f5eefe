import type { Override, OverrideCreate, OverrideTarget } from '../../src/shared/override';
import type { Queryable } from '../db/database';
import type { ServiceContext } from '../context';
import { invalid } from '../domain/errors';
import { DeviceRepository } from '../repositories/devices';
import { GroupRepository } from '../repositories/groups';
import { OverrideRepository } from '../repositories/overrides';
import { announceScreens } from './screen-settings';

/**
 * Emergency overrides. Raising or clearing one announces `device.changed` to every screen it
 * reaches, in the write's transaction: the event on which a screen already fetches its settings
 * again, where it finds the override (`GET /devices/:tag/settings`). A screen that comes online
 * later finds it in the same fetch; one that restarts has it in its saved state.
 */

/** The screens `target` reaches now, by tag; a 400 naming the field when it names nothing there. */
export async function screensOf(tx: Queryable, target: OverrideTarget): Promise<string[]> {
  if ('group_id' in target) {
    const groups = new GroupRepository(tx);
    if (!(await groups.find(target.group_id)))
      throw invalid(`group ${target.group_id} does not exist`, [
        { path: 'body.target.group_id', message: 'must name an existing group' },
      ]);
    return groups.memberTags(target.group_id);
  }
  if ('device_tag' in target) {
    if (!(await new DeviceRepository(tx).findByTag(target.device_tag)))
      throw invalid(`device ${target.device_tag} does not exist`, [
        { path: 'body.target.device_tag', message: 'must name an existing device' },
      ]);
    return [target.device_tag];
  }
  return new DeviceRepository(tx).tags();
}

export async function raiseOverride(
  ctx: ServiceContext,
  input: OverrideCreate,
  by: string,
): Promise<Override> {
  const now = ctx.clock.now();
  if (input.expires_at !== null && Date.parse(input.expires_at) <= now.getTime())
    throw invalid('expires_at is not in the future', [
      { path: 'body.expires_at', message: 'must be in the future' },
    ]);
  return ctx.changes.transaction(async (tx, emit) => {
    const screens = await screensOf(tx, input.target);
    const override = await new OverrideRepository(tx).create(input, now, by);
    announceScreens(emit, screens);
    emit({ type: 'console', resource: 'overrides', id: override.id });
    return override;
  });
}

/**
 * Clears an override; false when there is no such override. One cleared already stays as it was
 * (who cleared it first), and the answer is the same: it is not in force.
 */
export async function clearOverride(ctx: ServiceContext, id: string, by: string): Promise<boolean> {
  const now = ctx.clock.now();
  return ctx.changes.transaction(async (tx, emit) => {
    const repository = new OverrideRepository(tx);
    const override = await repository.find(id, now);
    if (!override) return false;
    if (!(await repository.clear(id, now, by))) return true;
    // The screens it reaches now: a group's members may have changed since it was raised.
    announceScreens(emit, await screensOf(tx, override.target).catch(() => []));
    emit({ type: 'console', resource: 'overrides', id });
    return true;
  });
}
