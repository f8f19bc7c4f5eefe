import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BOARD_DEFAULTS } from '../src/shared/board';
import { boardExportSchema } from '../src/shared/board-export';
import type { Variant } from '../src/shared/variants';
import { flag, fromJson, toJson } from './db/dialect';
import { newId } from './ids';
import { startTestService, type TestService } from './test-support';
import { originalExport } from '../src/shared/testing/original-export';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const importedSchema = z.intersection(z.object({ id: z.string() }), boardExportSchema);

async function counts() {
  const count = async (table: 'boards' | 'flows' | 'widgets') =>
    Number(
      (
        await service.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { boards: await count('boards'), flows: await count('flows'), widgets: await count('widgets') };
}

/** The flow's row as stored, in one shape on both stores. */
async function flowRow(tag: string) {
  const row = await service.db.kysely
    .selectFrom('flows')
    .select(['id', 'type', 'variant', 'tag', 'errored', 'enabled', 'channel_id', 'source', 'data'])
    .where('tag', '=', tag)
    .executeTakeFirst();
  return row && { ...row, errored: flag(row.errored), enabled: flag(row.enabled), data: fromJson(row.data) };
}

async function importBoard(body: unknown) {
  const response = await service.call('POST', '/boards/import', body);
  expect(response.statusCode, response.body).toBe(201);
  return importedSchema.parse(response.json());
}

describe('importing the original product’s export', () => {
  it('creates the board, its flows with their data, and its widgets', async () => {
    const imported = await importBoard(originalExport('_a'));
    expect(imported.id).toMatch(/^board_/);
    expect(imported).toMatchObject({
      ...BOARD_DEFAULTS,
      name: 'Crittercism',
      aspect_ratio: 'HDTV',
      widget_color: null,
      channel_ids: ['ch_default'],
    });
    expect(imported).not.toHaveProperty('widget_background');
    expect(imported.widgets).toEqual([
      {
        flow: { tag: 'app_error_rates_a', data: originalExport('').widgets[0]?.flow.data, errored: false },
        variant: 'barchart',
        column: 24,
        row: 12,
        width: 8,
        height: 8,
        in_board_index: 0,
        background: 'default',
        code: null,
      },
      {
        flow: { tag: 'crashes_a', data: {}, errored: false },
        variant: 'box',
        column: 0,
        row: 3,
        width: 8,
        height: 17,
        in_board_index: 1,
        background: 'none',
        code: null,
      },
    ]);
    expect(await flowRow('app_error_rates_a')).toMatchObject({
      id: expect.stringMatching(/^fl_/),
      type: 'default',
      variant: 'barchart',
      enabled: true,
      errored: false,
      channel_id: 'ch_default',
      source: null,
    });
    expect((await flowRow('crashes_a'))?.data).toEqual({});
    const board = await service.call('GET', `/boards/${imported.id}`);
    expect(board.statusCode).toBe(200);
    const { id, ...exported } = imported;
    expect((await service.call('GET', `/boards/${id}/export`)).json()).toEqual(exported);
  });

  it('maps widget_background to widget_color and puts new flows in the board’s first channel', async () => {
    const channel = newId('ch');
    await service.db.kysely
      .insertInto('channels')
      .values({
        id: channel,
        type: 'virtualized',
        name: 'Paris',
        tag: `paris-${channel}`,
        parent_channel_id: 'ch_default',
      })
      .execute();
    const imported = await importBoard({
      ...originalExport('_b'),
      widget_background: '#222',
      channel_ids: [channel],
    });
    expect(imported).toMatchObject({ widget_color: '#222', channel_ids: [channel] });
    expect((await flowRow('crashes_b'))?.channel_id).toBe(channel);
  });

  it('accepts widgets naming their flow by a bare tag, stacking them in order, ignoring unknown fields', async () => {
    const imported = await importBoard({
      name: 'Legacy',
      exported_by: 'the original product',
      widgets: [
        { variant: 'image', tag: 'legacy_image', column: 0, row: 0, width: 9, height: 6, background: 'none' },
        { variant: 'box', tag: 'legacy_box', column: 0, row: 6, width: 32, height: 8, extra: true },
      ],
    });
    expect(imported).not.toHaveProperty('exported_by');
    expect(imported.widgets.map((w) => [w.flow.tag, w.variant, w.in_board_index, w.background])).toEqual([
      ['legacy_image', 'image', 0, 'none'],
      ['legacy_box', 'box', 1, 'default'],
    ]);
    expect((await flowRow('legacy_image'))?.variant).toBe('image');
  });
});

describe('reusing flows', () => {
  it('reuses a flow that has the tag, keeping its data', async () => {
    const first = await importBoard(originalExport('_c'));
    const flow = await flowRow('app_error_rates_c');
    const before = await counts();
    const body = originalExport('_c');
    const second = await importBoard({
      ...body,
      name: 'Again',
      widgets: [{ ...body.widgets[0], flow: { tag: 'app_error_rates_c', data: { bars: [] } } }],
    });
    expect(second.id).not.toBe(first.id);
    expect(await counts()).toEqual({
      boards: (before?.boards ?? 0) + 1,
      flows: before?.flows,
      widgets: (before?.widgets ?? 0) + 1,
    });
    expect(await flowRow('app_error_rates_c')).toEqual(flow);
    expect(second.widgets[0]?.flow.data).toEqual(originalExport('').widgets[0]?.flow.data);
  });

  it('makes a flow once when two widgets of the import name it', async () => {
    const imported = await importBoard({
      name: 'Twice',
      widgets: [
        {
          flow: { tag: 'twice_cpu', data: { value: 1 } },
          variant: 'value',
          ...{ column: 0, row: 0 },
          width: 4,
          height: 4,
        },
        { flow: { tag: 'twice_cpu', data: {} }, variant: 'value', column: 4, row: 0, width: 4, height: 4 },
      ],
    });
    expect(imported.widgets.map((w) => w.flow)).toEqual([
      { tag: 'twice_cpu', data: { value: 1 }, errored: false },
      { tag: 'twice_cpu', data: { value: 1 }, errored: false },
    ]);
    const flows = await service.db.kysely
      .selectFrom('flows')
      .select('id')
      .where('tag', '=', 'twice_cpu')
      .execute();
    expect(flows).toHaveLength(1);
  });

  it('answers 409 naming the widget when the existing flow is of another variant', async () => {
    await importBoard(originalExport('_d'));
    const before = await counts();
    const body = originalExport('_d');
    const response = await service.call('POST', '/boards/import', {
      ...body,
      widgets: [
        body.widgets[1],
        { ...body.widgets[0], variant: 'value', flow: { tag: 'app_error_rates_d' } },
      ],
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('widget 1'),
      details: [{ path: 'body.widgets.1.variant', message: expect.stringContaining('barchart') }],
    });
    expect(await counts()).toEqual(before);
  });
});

describe('failed imports', () => {
  it('leaves nothing behind when a widget’s data does not fit its variant', async () => {
    const before = await counts();
    const body = originalExport('_e');
    const response = await service.call('POST', '/boards/import', {
      ...body,
      widgets: [
        body.widgets[0],
        body.widgets[1],
        {
          flow: { tag: 'bad_gauge_e', data: { value: 'high' } },
          variant: 'gauge',
          column: 8,
          row: 0,
          width: 4,
          height: 4,
        },
      ],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details).toEqual([
      { path: 'body.widgets.2.flow.data', message: expect.stringContaining('value') },
    ]);
    expect(await counts()).toEqual(before);
    expect(await flowRow('app_error_rates_e')).toBeUndefined();
  });

  it('drops channel ids this service does not have, as an export from another service carries', async () => {
    const response = await service.call('POST', '/boards/import', {
      ...originalExport('_f'),
      channel_ids: ['ch_nowhere', 'ch_default'],
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().channel_ids).toEqual(['ch_default']);
    const alone = await service.call('POST', '/boards/import', {
      ...originalExport('_f2'),
      channel_ids: ['ch_nowhere'],
    });
    expect(alone.json().channel_ids).toEqual(['ch_default']);
  });

  it('refuses bad shapes with 400 naming the field', async () => {
    const body = originalExport('_g');
    const cases: [unknown, string][] = [
      [{ ...body, name: '' }, 'body.name'],
      [{ ...body, widgets: [{ ...body.widgets[0], column: 30 }] }, 'body.widgets.0'],
      [{ ...body, widgets: [{ ...body.widgets[0], variant: 'hologram' }] }, 'body.widgets.0'],
      [{ ...body, widgets: [{ ...body.widgets[0], flow: { tag: 'bad tag!' } }] }, 'body.widgets.0'],
      [{ ...body, widget_margins: 'wide' }, 'body.widget_margins'],
    ];
    const before = await counts();
    for (const [payload, path] of cases) {
      const response = await service.call('POST', '/boards/import', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const paths = response.json().error.details.map((d: { path: string }) => d.path);
      expect(
        paths.some((p: string) => p.startsWith(path)),
        `${paths.join()} ${path}`,
      ).toBe(true);
    }
    expect(await counts()).toEqual(before);
  });
});

describe('export and import', () => {
  it('round-trips: importing an export gives the same export', async () => {
    const board = (
      await service.call('POST', '/boards', {
        name: 'Round trip',
        columns: 24,
        rows: 12,
        theme: 'light',
        widget_color: '#123',
      })
    ).json() as { id: string };
    const flows: [string, Variant, object][] = [
      ['rt_value', 'value', { value: 7, label: 'CPU' }],
      ['rt_text', 'text', { text: 'hello' }],
    ];
    for (const [tag, variant, data] of flows) {
      await service.db.kysely
        .insertInto('flows')
        .values({
          id: newId('flow'),
          type: 'default',
          variant,
          tag,
          errored: false,
          enabled: true,
          channel_id: 'ch_default',
          data: toJson(data),
        })
        .execute();
    }
    for (const [index, tag] of ['rt_value', 'rt_text'].entries()) {
      const response = await service.call('POST', `/boards/${board.id}/widgets`, {
        flow_tag: tag,
        column: index * 12,
        row: 0,
        width: 12,
        height: 12,
      });
      expect(response.statusCode).toBe(201);
    }
    const exported = boardExportSchema.parse(
      (await service.call('GET', `/boards/${board.id}/export`)).json(),
    );
    expect(exported.widgets).toHaveLength(2);

    // Into this service: the flows exist and are reused.
    const again = await importBoard(exported);
    const { id, ...rest } = again;
    expect(rest).toEqual(exported);
    expect((await service.call('GET', `/boards/${id}/export`)).json()).toEqual(exported);

    // Into a service that lacks the flows: they are made with the exported data.
    await service.db.kysely.deleteFrom('flows').where('tag', 'in', ['rt_value', 'rt_text']).execute();
    const { id: freshId, ...fresh } = await importBoard(exported);
    expect(freshId).not.toBe(id);
    expect(fresh).toEqual(exported);
    expect((await flowRow('rt_value'))?.data).toEqual({ value: 7, label: 'CPU' });
  });

  it('does not carry an exported errored flag to a flow it makes', async () => {
    const imported = await importBoard({
      name: 'Errored',
      widgets: [
        {
          flow: { tag: 'err_flow', data: {}, errored: true },
          variant: 'value',
          column: 0,
          row: 0,
          width: 1,
          height: 1,
        },
      ],
    });
    expect(imported.widgets[0]?.flow.errored).toBe(false);
  });
});

describe('import permissions', () => {
  it('refuses readonly and affiliated tokens, creating nothing', async () => {
    const before = await counts();
    for (const scope of ['readonly', 'affiliated'] as const) {
      const token = await service.tokenOf(scope);
      const response = await service.call('POST', '/boards/import', originalExport('_h'), token);
      expect(response.statusCode, scope).toBe(403);
    }
    expect(await counts()).toEqual(before);
  });
});
