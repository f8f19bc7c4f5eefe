import { isFlowReady, type Flow } from '../../src/shared/flow';
import type { Script, ScriptCreate, ScriptRun, ScriptUpdate } from '../../src/shared/script';
import { holdQuota } from '../accounts/quotas';
import type { ServiceContext } from '../context';
import type { Queryable } from '../db/database';
import { DomainError, invalid } from '../domain/errors';
import type { Emit } from '../realtime/changes';
import { FlowRepository } from '../repositories/flows';
import { flowAlreadyFed, ScriptRepository, type ScriptPatch } from '../repositories/scripts';
import { holdEnabledPlace } from '../scripts/enabled-cap';
import { syntaxProblem } from '../scripts/syntax';

/**
 * Creating, changing, deleting and running scripts, for the routes and the demo. A script that
 * feeds a flow is that flow's `source` (with `parameters` at least `{}`, so the flow is ready and
 * enabled); when it stops feeding it, the flow's source goes back to null. Either change is
 * published as `flow.changed`. Each write is told to the scheduler once committed.
 */

async function checkCode(code: string | undefined): Promise<void> {
  if (code === undefined) return;
  const problem = await syntaxProblem(code);
  if (problem) {
    throw invalid(`the code does not compile: ${problem}`, [{ path: 'body.code', message: problem }]);
  }
}

/** The flow a body names: undefined when it names none, null for `flow_id: null`. */
async function namedFlow(
  flows: FlowRepository,
  body: { flow_id?: string | null; flow_tag?: string },
): Promise<Flow | null | undefined> {
  if (body.flow_tag !== undefined) {
    const flow = await flows.getByTag(body.flow_tag);
    if (!flow) {
      throw invalid(`flow ${body.flow_tag} does not exist`, [
        { path: 'body.flow_tag', message: `no flow has the tag "${body.flow_tag}"` },
      ]);
    }
    return flow;
  }
  if (body.flow_id === undefined || body.flow_id === null) return body.flow_id;
  const flow = await flows.get(body.flow_id);
  if (!flow) {
    throw invalid(`flow ${body.flow_id} does not exist`, [
      { path: 'body.flow_id', message: `no flow has the id "${body.flow_id}"` },
    ]);
  }
  return flow;
}

async function checkFree(scripts: ScriptRepository, flow: Flow, self: string | null): Promise<void> {
  const feeder = await scripts.findByFlow(flow.id);
  if (feeder && feeder.id !== self) throw flowAlreadyFed(`"${flow.tag}"`, feeder.id);
}

/** The store refused the write for another script feeding the flow: said with the flow's tag. */
function byTag(error: unknown, flow: Flow | null | undefined): unknown {
  const fed = error instanceof DomainError && error.kind === 'conflict';
  return fed && flow ? flowAlreadyFed(`"${flow.tag}"`, 'another script') : error;
}

/** Makes the script the flow's source; the flow's id when it changed. */
async function attach(tx: Queryable, flowId: string, scriptId: string): Promise<string | null> {
  let changed = false;
  const flow = await new FlowRepository(tx).update(flowId, (current) => {
    const parameters = current.parameters ?? {};
    changed = current.source !== scriptId || current.parameters === null || !current.enabled;
    return { source: scriptId, parameters, enabled: isFlowReady({ source: scriptId, parameters }) };
  });
  return flow && changed ? flow.id : null;
}

/** Clears the flow's source when it is still this script; the flow's id when it changed. */
async function detach(tx: Queryable, flowId: string, scriptId: string): Promise<string | null> {
  let changed = false;
  const flow = await new FlowRepository(tx).update(flowId, (current) => {
    if (current.source !== scriptId) return {};
    changed = true;
    return { source: null, enabled: isFlowReady({ source: null, parameters: current.parameters }) };
  });
  return flow && changed ? flow.id : null;
}

function announceFlows(emit: Emit, ids: readonly (string | null)[]): void {
  for (const id of new Set(ids)) {
    if (id) emit({ type: 'flow.changed', flow_id: id });
  }
}

/** An enabled script runs at once, then on its interval. */
export async function createScript(ctx: ServiceContext, body: ScriptCreate): Promise<Script> {
  await checkCode(body.code);
  const flow = await namedFlow(new FlowRepository(ctx.db), body);
  if (flow) await checkFree(new ScriptRepository(ctx.db), flow, null);
  let script: Script;
  try {
    script = await ctx.changes.transaction(async (tx, emit) => {
      await holdQuota(tx, 'scripts');
      if (body.enabled) await holdEnabledPlace(tx, ctx.config.scriptsEnabledPerAccount);
      const created = await new ScriptRepository(tx).create(
        {
          name: body.name,
          code: body.code,
          interval: body.interval,
          timeout_seconds: body.timeout_seconds,
          enabled: body.enabled,
          flow_id: flow ? flow.id : null,
        },
        ctx.clock.now(),
      );
      announceFlows(emit, [flow ? await attach(tx, flow.id, created.id) : null]);
      emit({ type: 'console', resource: 'scripts', id: created.id });
      return created;
    });
  } catch (error) {
    throw byTag(error, flow);
  }
  await ctx.jobs.scriptChanged(script.id);
  return script;
}

/**
 * The updated script, or null when there is no such script. An empty body changes nothing; any
 * other runs an enabled script again at once.
 */
export async function updateScript(
  ctx: ServiceContext,
  id: string,
  body: ScriptUpdate,
): Promise<Script | null> {
  const scripts = new ScriptRepository(ctx.db);
  const current = await scripts.get(id);
  if (!current) return null;
  const { flow_id: _flowId, flow_tag: _flowTag, ...fields } = body;
  const patch: ScriptPatch = Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  ) as ScriptPatch;
  await checkCode(patch.code);
  const flow = await namedFlow(new FlowRepository(ctx.db), body);
  if (flow) await checkFree(scripts, flow, id);
  const nextFlowId = flow === undefined ? current.flow_id : flow === null ? null : flow.id;
  const moving = nextFlowId !== current.flow_id;
  if (moving) patch.flow_id = nextFlowId;
  if (Object.keys(patch).length === 0 && flow === undefined) return current;
  let script: Script | null;
  try {
    script = await ctx.changes.transaction(async (tx, emit) => {
      // Enabling takes a place under the account's limit; one enabled already holds its own.
      if (patch.enabled && !current.enabled) {
        await holdEnabledPlace(tx, ctx.config.scriptsEnabledPerAccount);
      }
      const updated = await new ScriptRepository(tx).update(id, patch, ctx.clock.now());
      if (!updated) return null;
      const changed: (string | null)[] = [];
      if (moving && current.flow_id) changed.push(await detach(tx, current.flow_id, id));
      if (nextFlowId && flow !== undefined) changed.push(await attach(tx, nextFlowId, id));
      announceFlows(emit, changed);
      emit({ type: 'console', resource: 'scripts', id });
      return updated;
    });
  } catch (error) {
    throw byTag(error, flow);
  }
  await ctx.jobs.scriptChanged(id);
  return script;
}

/** True when it existed. Its flow stops being fed (source null) and its runs go with it. */
export async function deleteScript(ctx: ServiceContext, id: string): Promise<boolean> {
  const deleted = await ctx.changes.transaction(async (tx, emit) => {
    const script = await new ScriptRepository(tx).delete(id);
    if (!script) return false;
    announceFlows(emit, [script.flow_id ? await detach(tx, script.flow_id, id) : null]);
    emit({ type: 'console', resource: 'scripts', id });
    return true;
  });
  if (deleted) await ctx.jobs.scriptChanged(id);
  return deleted;
}

/**
 * Runs the script now, enabled or not, and answers the run once it is over; null when there is
 * no such script. Unavailable (RunnerStopped) once the service stops.
 */
export async function runScript(ctx: ServiceContext, id: string): Promise<ScriptRun | null> {
  if (!(await new ScriptRepository(ctx.db).get(id))) return null;
  return ctx.jobs.runScript(id, 'manual');
}
