import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { boardSchema } from '../src/shared/board';
import { boardExportSchema } from '../src/shared/board-export';
import { parseMetrics } from '../src/shared/metrics';
import { scriptRunSchema, scriptSchema } from '../src/shared/script';
import { BOARD_TEMPLATES } from '../src/shared/templates';
import { boardTemplateSchema } from '../src/shared/templates/template';
import { runAccountCommand } from './account-commands';
import { parseCommand } from './cli-options';
import { startTestService, type TestService } from './test-support';

// Every template, made through the service as the console makes it, on the store of the run
// (SQLite, or PostgreSQL under `npm run test:postgres`).
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const createdSchema = z.object({ board: boardSchema, script: scriptSchema });

async function fromTemplate(id: string, body: unknown = {}) {
  const response = await service.call('POST', `/boards/from-template/${id}`, body);
  expect(response.statusCode, response.body).toBe(201);
  return createdSchema.parse(response.json());
}

async function exportOf(boardId: string) {
  const response = await service.call('GET', `/boards/${boardId}/export`);
  expect(response.statusCode, response.body).toBe(200);
  return boardExportSchema.parse(response.json());
}

describe('GET /board-templates', () => {
  it('lists the six templates with their boards, sample data and script', async () => {
    const response = await service.call('GET', '/board-templates');
    expect(response.statusCode, response.body).toBe(200);
    const listed = z.array(boardTemplateSchema).parse(response.json());
    expect(listed.map((template) => template.id)).toEqual([
      'operations-status',
      'sales',
      'support-queue',
      'meeting-room',
      'lobby-welcome',
      'kpi-wall',
    ]);
    for (const template of listed) {
      expect(template.board.widgets.length).toBeGreaterThan(3);
      expect(template.board.widgets.map((widget) => widget.flow.tag)).toContain(template.script.feeds);
    }
  });

  it('is open to a read-only token', async () => {
    const token = await service.tokenOf('readonly');
    expect((await service.call('GET', '/board-templates', undefined, token)).statusCode).toBe(200);
  });
});

describe.each(BOARD_TEMPLATES.map((template) => [template.id, template] as const))(
  'a board from the template %s',
  (id, template) => {
    it('has every widget with its sample data, on flows of its own', async () => {
      const { board } = await fromTemplate(id);
      expect(board.name).toBe(template.name);
      const exported = await exportOf(board.id);
      expect(exported.widgets).toHaveLength(template.board.widgets.length);
      for (const [index, widget] of template.board.widgets.entries()) {
        const made = exported.widgets[index]!;
        expect(made).toMatchObject({ variant: widget.variant, column: widget.column, row: widget.row });
        expect(made.flow.tag).toMatch(new RegExp(`-${widget.flow.tag}(-\\d+)?$`));
        expect(made.flow.errored).toBe(false);
        expect(parseMetrics(made.variant, made.flow.data).success).toBe(true);
        expect(made.flow.data).toEqual(widget.flow.data);
      }
    });

    it('comes with a disabled script stub that feeds one of its widgets, and runs', async () => {
      const { board, script } = await fromTemplate(id);
      expect(script).toMatchObject({ enabled: false, interval: template.script.interval });
      expect(script.name).toBe(`${template.name}: ${template.script.name}`);
      const exported = await exportOf(board.id);
      const fed = exported.widgets.find((widget) => widget.flow.tag.includes(template.script.feeds));
      const flow = (await service.call('GET', `/flows/${fed!.flow.tag}`)).json<{ id: string }>();
      expect(script.flow_id).toBe(flow.id);
      // The stub says where every other widget's data goes.
      for (const widget of exported.widgets) expect(script.code).toContain(widget.flow.tag);

      const run = await service.call('POST', `/scripts/${script.id}/run`, {});
      expect(run.statusCode, run.body).toBe(200);
      expect(scriptRunSchema.parse(run.json()).outcome).toBe('ok');
      const after = await exportOf(board.id);
      const data = after.widgets.find((widget) => widget.flow.tag === fed!.flow.tag)!.flow.data;
      expect(parseMetrics(fed!.variant, data).success).toBe(true);
      expect(Object.keys(data).length).toBeGreaterThan(0);
    });
  },
);

describe('making boards from templates', () => {
  it('gives a second board of the same name flows of its own, and takes a name', async () => {
    const first = await fromTemplate('sales', { name: 'Sales EU' });
    const second = await fromTemplate('sales', { name: 'Sales EU' });
    const [a, b] = [await exportOf(first.board.id), await exportOf(second.board.id)];
    expect(a.name).toBe('Sales EU');
    expect(a.widgets[0]!.flow.tag).toBe('sales-eu-revenue');
    expect(b.widgets[0]!.flow.tag).toBe('sales-eu-revenue-2');
    expect(second.script.name).toBe('Sales EU: revenue today');
  });

  it("makes the board in the caller's account only", async () => {
    const other = await service.addAccount('Other');
    const response = await other.call('POST', '/boards/from-template/kpi-wall', {});
    expect(response.statusCode, response.body).toBe(201);
    const { board } = createdSchema.parse(response.json());
    expect((await other.call('GET', '/boards')).json<{ id: string }[]>().map((b) => b.id)).toEqual([
      board.id,
    ]);
    expect((await service.call('GET', `/boards/${board.id}`)).statusCode).toBe(404);
  });

  it('leaves no board behind when the account may hold no more scripts', async () => {
    const tight = await service.addAccount('Tight');
    const update = parseCommand(['account', 'update', tight.id, '--scripts', '0']);
    if (update.kind !== 'account') throw new Error('not an account command');
    await runAccountCommand(update, service.db);
    const response = await tight.call('POST', '/boards/from-template/sales', {});
    expect(response.statusCode, response.body).toBe(403);
    expect(response.json()).toMatchObject({ error: { code: 'quota_exceeded' } });
    expect((await tight.call('GET', '/boards')).json<unknown[]>()).toEqual([]);
  });

  it('answers 404 for an unknown template and leaves nothing behind', async () => {
    const before = (await service.call('GET', '/boards')).json<unknown[]>().length;
    const response = await service.call('POST', '/boards/from-template/no-such-board', {});
    expect(response.statusCode).toBe(404);
    expect((await service.call('GET', '/boards')).json<unknown[]>()).toHaveLength(before);
  });

  it('is refused to a read-only token', async () => {
    const token = await service.tokenOf('readonly');
    const response = await service.call('POST', '/boards/from-template/sales', {}, token);
    expect(response.statusCode).toBe(403);
  });

  it('refuses an empty name', async () => {
    const response = await service.call('POST', '/boards/from-template/sales', { name: '  ' });
    expect(response.statusCode).toBe(400);
  });
});
