// Commands that outlive their time, and what is kept of commands and proof of play: one pass a
// minute (a job, service-jobs.ts), on the context's clock.
import { expireCommands } from '../actions/commands';
import type { ServiceContext } from '../context';
import { CommandRepository } from '../repositories/commands';
import { DeviceHistoryRepository } from '../repositories/device-history';
import { PlayRepository } from '../repositories/plays';

export const COMMANDS_PASS_INTERVAL_MS = 60_000;
const DAY_MS = 86_400_000;
/** Finished commands are kept this long: long enough to look one up, not an archive. */
export const FINISHED_COMMANDS_KEEP_DAYS = 7;
/** Proof of play is kept this long: a quarter's reports, without filling a display computer's disk. */
export const PLAYS_KEEP_DAYS = 92;

/**
 * Fails the commands past their time, then drops old finished commands, old plays, and the status
 * history older than the plays kept (a screen's report and its story cover the same time).
 */
export async function commandsPass(ctx: ServiceContext): Promise<void> {
  await expireCommands(ctx);
  const now = ctx.clock.now().getTime();
  await new CommandRepository(ctx.db).prune(new Date(now - FINISHED_COMMANDS_KEEP_DAYS * DAY_MS));
  await new PlayRepository(ctx.db).prune(new Date(now - PLAYS_KEEP_DAYS * DAY_MS));
  await new DeviceHistoryRepository(ctx.db).prune(new Date(now - PLAYS_KEEP_DAYS * DAY_MS));
}
