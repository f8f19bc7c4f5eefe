import {
  COMMAND_TTL_SECONDS,
  COMMANDS_WAITING_MAX,
  type Command,
  type CommandResult,
  type CommandStatus,
  type CommandType,
} from '../../src/shared/command';
import type { Device } from '../../src/shared/device';
import type { ServiceContext } from '../context';
import { conflict, notFound } from '../domain/errors';
import { CommandRepository } from '../repositories/commands';
import { DeviceRepository } from '../repositories/devices';

/**
 * Remote commands. Sending one queues it and pushes `command.created` to its device's room in
 * the same transaction; a device away hears of it in its replay or asks for the queued ones when
 * it is back (docs/api/commands.md). The device reports it `delivered`, then `done` or `failed`;
 * one not finished within COMMAND_TTL_SECONDS fails as expired (the expiry job).
 */

/** What a status may become: forward only, and a repeated report (a retry) changes nothing. */
const NEXT: Record<CommandStatus, readonly CommandStatus[]> = {
  queued: ['delivered', 'done', 'failed'],
  delivered: ['done', 'failed'],
  done: [],
  failed: [],
};

export const deviceNotFound = (tag: string) => notFound(`device ${tag}`);

/** The device of `tag`; a DomainError (404) when there is none. */
export async function deviceOf(devices: DeviceRepository, tag: string): Promise<Device> {
  const device = await devices.findByTag(tag);
  if (!device) throw deviceNotFound(tag);
  return device;
}

/** Queues a command for the device and pushes it to the device's room. */
export function sendCommand(ctx: ServiceContext, tag: string, type: CommandType): Promise<Command> {
  const now = ctx.clock.now();
  return ctx.changes.transaction(async (tx, emit) => {
    const device = await deviceOf(new DeviceRepository(tx), tag);
    const commands = new CommandRepository(tx);
    if ((await commands.countOpen(device.id)) >= COMMANDS_WAITING_MAX) {
      throw conflict(
        `device ${tag} has ${COMMANDS_WAITING_MAX} commands waiting already; wait for them to finish or expire`,
      );
    }
    const command = await commands.create(
      device,
      type,
      now,
      new Date(now.getTime() + COMMAND_TTL_SECONDS * 1000),
    );
    emit({ type: 'command.created', command });
    return command;
  });
}

/**
 * The device's report of a command: null when the device or the command is unknown. A status
 * goes forward only; reporting the one it has again is answered as it is (a device retries
 * reports it could not know arrived), anything else is a conflict.
 */
export async function reportCommandResult(
  ctx: ServiceContext,
  tag: string,
  id: string,
  result: CommandResult,
): Promise<Command | null> {
  const now = ctx.clock.now();
  return ctx.changes.transaction(async (tx, emit) => {
    const commands = new CommandRepository(tx);
    const command = await commands.findForUpdate(tag, id);
    if (!command || command.status === result.status) return command;
    if (!NEXT[command.status].includes(result.status)) {
      const why = command.reason ? ` (${command.reason})` : '';
      throw conflict(`command ${id} is ${command.status}${why}; it cannot become ${result.status}`, [
        { path: 'body.status', message: `must follow "${command.status}"` },
      ]);
    }
    const reason = result.reason ?? null;
    await commands.setStatus(id, result.status, reason, now);
    emit({ type: 'console', resource: 'commands', id });
    return { ...command, status: result.status, reason, updated_at: now.toISOString() };
  });
}

/** Why an unfinished command failed, by the status it was left in. */
function expiryReason(status: CommandStatus): string {
  const hour = `${COMMAND_TTL_SECONDS / 3600} h`;
  return status === 'queued'
    ? `expired: the device did not take it within ${hour}`
    : `expired: the device took it but did not report an outcome within ${hour}`;
}

/** Fails every unfinished command past its time; how many. */
export async function expireCommands(ctx: ServiceContext): Promise<number> {
  const expired = await new CommandRepository(ctx.db).expire(ctx.clock.now(), expiryReason);
  if (expired > 0) await ctx.changes.publish({ type: 'console', resource: 'commands' });
  return expired;
}
