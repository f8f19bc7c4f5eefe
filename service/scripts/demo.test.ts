import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardExportSchema } from '../../src/shared/board-export';
import type { Flow } from '../../src/shared/flow';
import type { Script, ScriptRun } from '../../src/shared/script';
import { startTestService, type TestService } from '../test-support';
import { FakeClock } from '../testing/fake-clock';
import { seedDemo } from './demo';

let service: TestService;
/** Moved by hand: the scheduler runs the seeded scripts when the test says so. */
const clock = new FakeClock();
beforeAll(async () => {
  service = await startTestService({ clock });
});
afterAll(() => service.close());

describe('the demo', () => {
  it('seeds a board of most variants, fed by scripts, with a playlist; once', async () => {
    const seeded = await seedDemo(service.app.wallboard);
    expect(seeded).not.toBeNull();
    const { boardId, playlistId } = seeded!;

    const exported = (await service.call('GET', `/boards/${boardId}/export`)).json();
    const parsed = boardExportSchema.safeParse(exported);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(exported).toMatchObject({ theme: 'dark', columns: 32, rows: 20 });
    const variants = new Set(exported.widgets.map((widget: { variant: string }) => widget.variant));
    for (const variant of [
      'value',
      'gauge',
      'graph',
      'barchart',
      'piechart',
      'multivalue',
      'table',
      'text',
      'clock',
      'countdown',
      'status',
      'tickertape',
      'log',
      'servers',
      'bulletchart',
      'funnelchart',
    ]) {
      expect(variants, variant).toContain(variant);
    }

    const playlist = (await service.call('GET', `/playlists/${playlistId}`)).json();
    expect(playlist.items).toEqual([expect.objectContaining({ type: 'board', board_id: boardId })]);

    const scripts = (await service.call('GET', '/scripts')).json() as Script[];
    const flows = (await service.call('GET', '/flows')).json() as Flow[];
    const fed = flows.filter((flow) => flow.source !== null);
    expect(fed.length).toBeGreaterThanOrEqual(14);
    for (const flow of fed) {
      expect(scripts.find((script) => script.id === flow.source)?.flow_id).toBe(flow.id);
      expect(flow).toMatchObject({ enabled: true, parameters: {} });
    }
    const intervals = scripts.map((script) => script.interval_seconds);
    expect(Math.min(...intervals)).toBeGreaterThanOrEqual(5);
    expect(scripts.filter((script) => script.flow_id === null).map((s) => s.interval)).toEqual(['2m']);

    // Every demo script runs cleanly and its result fits its flow.
    for (const script of scripts) {
      const run = (await service.call('POST', `/scripts/${script.id}/run`)).json() as ScriptRun;
      expect(run, script.name).toMatchObject({ outcome: 'ok', error: null });
    }
    for (const flow of fed) {
      const data = (await service.call('GET', `/flows/${flow.tag}/metrics`)).json();
      expect(Object.keys(data).length, flow.tag).toBeGreaterThan(0);
      expect((await service.call('GET', `/flows/${flow.id}`)).json().errored).toBe(false);
    }
    const notes = (await service.call('GET', '/channels/ch_default/notifications')).json();
    expect(notes.length).toBeGreaterThanOrEqual(1);

    // Seeded after the app was ready: the scheduler heard of each script and runs it at once.
    await clock.advance(0);
    for (const script of scripts) {
      const runs = (await service.call('GET', `/scripts/${script.id}/runs`)).json() as ScriptRun[];
      expect(
        runs.filter((run) => run.trigger === 'schedule'),
        script.name,
      ).toHaveLength(1);
    }

    expect(await seedDemo(service.app.wallboard)).toBeNull();
    expect((await service.call('GET', '/boards')).json()).toHaveLength(1);
    expect((await service.call('GET', '/scripts')).json()).toHaveLength(scripts.length);
  });
});
