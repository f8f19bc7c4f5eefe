import type {
  DataBinding,
  DataBindingCreate,
  DataBindingUpdate,
  DataSource,
  DataSourceCreate,
  DataSourceKind,
  DataSourceUpdate,
} from '../../src/shared/data-source';
import type { ServiceContext } from '../context';
import { checkSource } from '../data-sources/connection';
import { SOURCE_KINDS } from '../data-sources/kinds';
import { mappingErrors } from '../data-sources/mapping';
import { conflict, invalid, notFound, quotaExceeded } from '../domain/errors';
import type { Emit } from '../realtime/changes';
import { DataBindingRepository } from '../repositories/data-bindings';
import { answerOf, DataSourceRepository } from '../repositories/data-sources';
import { FlowRepository } from '../repositories/flows';

/**
 * Data sources and their bindings (docs/data-sources.md): the operators' side. Each change tells
 * the consoles (`data-sources`); the flows hear of a binding only through the data it writes
 * (jobs/data-sources.ts), as they hear of a script's.
 */

/** The most sources and bindings an account keeps: far more than a wall of screens shows. */
export const SOURCES_PER_ACCOUNT = 200;
export const BINDINGS_PER_ACCOUNT = 5000;

const told = (emit: Emit, id: string) => emit({ type: 'console', resource: 'data-sources', id });

/** The query and mapping as its source's kind takes them: a 400 naming the field otherwise. */
function checkBinding(
  kind: DataSourceKind,
  binding: { query: string; range: DataBinding['range']; mapping: Record<string, string> },
): void {
  const query = SOURCE_KINDS[kind].check(binding.query, binding.range);
  if (query !== null) {
    const path = binding.range !== null && query.includes('range') ? 'range' : 'query';
    throw invalid(`${path}: ${query}`, [{ path, message: query }]);
  }
  const mapping = mappingErrors(binding.mapping);
  if (mapping.length > 0) {
    throw invalid(
      `mapping: ${mapping.join('; ')}`,
      mapping.map((message) => ({ path: `mapping.${message.split(':')[0]}`, message })),
    );
  }
}

export async function createDataSource(ctx: ServiceContext, input: DataSourceCreate): Promise<DataSource> {
  checkSource(input, ctx.config);
  return ctx.changes.transaction(async (tx, emit) => {
    const sources = new DataSourceRepository(tx);
    if ((await sources.count()) >= SOURCES_PER_ACCOUNT) {
      throw quotaExceeded(`an account may have at most ${SOURCES_PER_ACCOUNT} data sources`);
    }
    const source = await sources.create(input, ctx.clock.now());
    told(emit, source.id);
    return answerOf(source);
  });
}

/** The source as patched; null when there is none. Its bindings' queries are checked again when they still fit. */
export async function updateDataSource(
  ctx: ServiceContext,
  id: string,
  patch: DataSourceUpdate,
): Promise<DataSource | null> {
  return ctx.changes.transaction(async (tx, emit) => {
    const sources = new DataSourceRepository(tx);
    const before = await sources.find(id);
    if (!before) return null;
    checkSource(
      {
        kind: before.kind,
        url: patch.url ?? before.url,
        allow_private: patch.allow_private ?? before.allow_private,
      },
      ctx.config,
    );
    await sources.update(id, patch);
    told(emit, id);
    const after = await sources.find(id);
    return after ? answerOf(after) : null;
  });
}

/** False when there is no such source. Its bindings go with it; their flows keep their last data. */
export async function deleteDataSource(ctx: ServiceContext, id: string): Promise<boolean> {
  return ctx.changes.transaction(async (tx, emit) => {
    const gone = await new DataSourceRepository(tx).delete(id);
    if (gone) told(emit, id);
    return gone;
  });
}

export async function createDataBinding(ctx: ServiceContext, input: DataBindingCreate): Promise<DataBinding> {
  return ctx.changes.transaction(async (tx, emit) => {
    const source = await new DataSourceRepository(tx).find(input.source_id);
    if (!source) {
      const message = `no data source ${input.source_id}`;
      throw invalid(`source_id: ${message}`, [{ path: 'source_id', message }]);
    }
    const flow = await new FlowRepository(tx).find(input.flow, 'tag');
    if (!flow) {
      const message = `no flow ${input.flow}`;
      throw invalid(`flow: ${message}`, [{ path: 'flow', message }]);
    }
    checkBinding(source.kind, input);
    const bindings = new DataBindingRepository(tx);
    const existing = await bindings.ofFlow(flow.id);
    if (existing) {
      const message = `flow ${flow.tag} is already fed by binding ${existing.id}: change or delete that one`;
      throw conflict(message, [{ path: 'flow', message }]);
    }
    if ((await bindings.count()) >= BINDINGS_PER_ACCOUNT) {
      throw quotaExceeded(`an account may have at most ${BINDINGS_PER_ACCOUNT} data bindings`);
    }
    const id = await bindings.create({ ...input, flow_id: flow.id }, ctx.clock.now());
    // Its source runs at the job's next pass, for the new binding's first data.
    await new DataSourceRepository(tx).runSoon(source.id);
    told(emit, source.id);
    const created = await bindings.find(id);
    if (!created) throw notFound(`data binding ${id}`);
    return created;
  });
}

export async function updateDataBinding(
  ctx: ServiceContext,
  id: string,
  patch: DataBindingUpdate,
): Promise<DataBinding | null> {
  return ctx.changes.transaction(async (tx, emit) => {
    const bindings = new DataBindingRepository(tx);
    const before = await bindings.find(id);
    if (!before) return null;
    const source = await new DataSourceRepository(tx).find(before.source_id);
    if (!source) return null;
    checkBinding(source.kind, {
      query: patch.query ?? before.query,
      range: patch.range === undefined ? before.range : patch.range,
      mapping: patch.mapping ?? before.mapping,
    });
    await bindings.update(id, patch);
    await new DataSourceRepository(tx).runSoon(source.id);
    told(emit, source.id);
    return bindings.find(id);
  });
}

export async function deleteDataBinding(ctx: ServiceContext, id: string): Promise<boolean> {
  return ctx.changes.transaction(async (tx, emit) => {
    const bindings = new DataBindingRepository(tx);
    const binding = await bindings.find(id);
    if (!binding || !(await bindings.delete(id))) return false;
    told(emit, binding.source_id);
    return true;
  });
}
