import type { ScriptSecret } from '../../src/shared/script-secret';
import type { ServiceContext } from '../context';
import { ScriptSecretRepository } from '../repositories/script-secrets';

/**
 * Setting and deleting a script's secrets. Each change is announced as a change of its script
 * (the console's page of it lists the names); the value never goes with it. A run reads the
 * values when it starts, so nothing is told to the scheduler.
 */

/** The secret and whether it is new; null when there is no such script. */
export async function setScriptSecret(
  ctx: ServiceContext,
  scriptId: string,
  name: string,
  value: string,
): Promise<{ secret: ScriptSecret; created: boolean } | null> {
  return ctx.changes.transaction(async (tx, emit) => {
    const set = await new ScriptSecretRepository(tx, ctx.config.secretsKey).put(
      scriptId,
      name,
      value,
      ctx.clock.now(),
    );
    if (set) emit({ type: 'console', resource: 'scripts', id: scriptId });
    return set;
  });
}

/** True when it existed. */
export async function deleteScriptSecret(
  ctx: ServiceContext,
  scriptId: string,
  name: string,
): Promise<boolean> {
  return ctx.changes.transaction(async (tx, emit) => {
    const deleted = await new ScriptSecretRepository(tx, ctx.config.secretsKey).delete(scriptId, name);
    if (deleted) emit({ type: 'console', resource: 'scripts', id: scriptId });
    return deleted;
  });
}
