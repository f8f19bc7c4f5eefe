import type { BoardContentSave } from '../../src/shared/board-content';
import { isFlowReady } from '../../src/shared/flow';
import type { FieldIssue } from '../../src/shared/issues';
import type { Variant } from '../../src/shared/variants';
import { defaultChannelId } from '../accounts/accounts';
import type { ServiceContext } from '../context';
import type { Queryable } from '../db/database';
import { invalid } from '../domain/errors';
import { metricsCheck } from '../domain/metrics-check';
import type { Emit } from '../realtime/changes';
import { FlowRepository } from '../repositories/flows';
import { writeMetricsIn } from './write-metrics';

/**
 * The flows a board's save creates for its new widgets, and the data it writes for the flows it
 * shows. The editor used to create a flow as soon as a widget was added, so a board never saved
 * left its flows behind (and the next board's got `-2` tags); now they are created in the save's
 * own transaction, with the board, or not at all.
 */

/** The variant of each flow the save creates, by tag; their first data checked, every refusal at once. */
export function checkSavedFlows(ctx: ServiceContext, save: BoardContentSave): Map<string, Variant> {
  const details: FieldIssue[] = [];
  const created = new Map<string, Variant>();
  for (const [index, { tag, variant, data }] of (save.flows ?? []).entries()) {
    created.set(tag, variant);
    if (data) details.push(...(metricsCheck(ctx.config, `body.flows.${index}.data`)(variant, data) ?? []));
  }
  if (details.length > 0) throw invalid('the data of a new flow does not fit its variant', details);
  return created;
}

/** Creates the save's new flows in `tx`; their ids by tag. A tag taken meanwhile refuses the save (409). */
export async function createSavedFlows(
  ctx: ServiceContext,
  tx: Queryable,
  emit: Emit,
  save: BoardContentSave,
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const flows = new FlowRepository(tx);
  for (const { tag, variant, data } of save.flows ?? []) {
    const flow = await flows.create(
      {
        tag,
        variant,
        type: 'default',
        channel_id: defaultChannelId(),
        source: null,
        parameters: null,
        enabled: isFlowReady({ source: null, parameters: null }),
        created_at: ctx.clock.now(),
      },
      data ?? {},
    );
    ids.set(tag, flow.id);
    emit({ type: 'console', resource: 'flows', id: flow.id });
  }
  return ids;
}

/**
 * Writes the save's data in `tx`, each checked as `PUT /flows/:tag/metrics` checks it and
 * announced to the screens showing its flow; any refusal refuses the whole save.
 */
export async function writeSavedData(
  ctx: ServiceContext,
  tx: Queryable,
  emit: Emit,
  save: BoardContentSave,
): Promise<void> {
  const writes = save.data ?? [];
  if (writes.length === 0) return;
  const results = await writeMetricsIn(
    tx,
    emit,
    ctx,
    writes.map(({ tag, data }, index) => ({
      key: tag,
      change: { kind: 'replace' as const, data },
      check: metricsCheck(ctx.config, `body.data.${index}.data`),
    })),
  );
  const details = results.flatMap((result, index): FieldIssue[] =>
    result.status === 'missing'
      ? [{ path: `body.data.${index}.tag`, message: 'names no flow' }]
      : result.status === 'invalid'
        ? result.details
        : [],
  );
  if (details.length > 0) throw invalid('data of the save does not fit its flow', details);
}
