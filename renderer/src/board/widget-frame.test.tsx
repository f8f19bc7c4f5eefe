import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import type { BoardExport } from '../../../src/shared/board-export';
import { THEMES } from '../../../src/shared/theme';
import { ORIGINAL_VARIANT_DATA } from '../../../src/shared/testing/original-variant-data';
import type { Variant } from '../../../src/shared/variants';
import { FlowStore } from '../store/flow-store';
import { WidgetFrame } from './widget-frame';

/** The data a client of the original product sent for `variant`, stored as it was sent. */
const sent = (client: string, variant: Variant) =>
  ORIGINAL_VARIANT_DATA.find((c) => c.client === client && c.variant === variant)!.sent;

async function frame(variant: Variant, data: Record<string, unknown>) {
  const store = new FlowStore();
  store.set('flow', data);
  const problems: string[] = [];
  const widget = {
    flow: { tag: 'flow', data: {}, errored: false },
    variant,
    column: 0,
    row: 0,
    width: 8,
    height: 4,
    in_board_index: 0,
    background: 'default',
  } satisfies BoardExport['widgets'][number];
  const screen = await render(
    <div style={{ position: 'relative', width: 640, height: 320 }}>
      <WidgetFrame
        widget={widget}
        box={{ left: 0, top: 0, width: 640, height: 320 }}
        padding={8}
        theme={THEMES.dark}
        fontSize={20}
        titleFontSize={18}
        widgetColor={null}
        titleColor={null}
        store={store}
        media={() => undefined}
        onProblem={(message) => problems.push(message)}
      />
    </div>,
  );
  return { screen, problems };
}

describe("a widget given the original clients' data", () => {
  it("draws the Ruby gem's table rows and the PHP client's per-column colours as cells", async () => {
    const ruby = await frame('table', sent('ruby', 'table'));
    await expect.element(ruby.screen.getByText('web-1')).toBeInTheDocument();
    await expect.element(ruby.screen.getByText('Load')).toBeInTheDocument();
    expect(ruby.problems).toEqual([]);

    const php = await frame('table', sent('php', 'table'));
    const cells = php.screen.container.querySelectorAll<HTMLElement>('.lists-table-value');
    expect([...cells].map((cell) => cell.textContent)).toEqual(['Test', 'Test']);
    expect(php.problems).toEqual([]);
  });

  it("draws the PHP client's servers by name, and a Go barchart sent empty as null", async () => {
    const servers = await frame('servers', sent('php', 'servers'));
    await expect.element(servers.screen.getByText('Mac Pro')).toBeInTheDocument();
    expect(servers.screen.container.querySelectorAll('.num-server-value')).toHaveLength(3);

    const bars = await frame('barchart', sent('go', 'barchart'));
    expect(bars.screen.container.querySelector('.widget-barchart')).not.toBeNull();
    expect(bars.screen.container.textContent).not.toContain('Data does not fit');
    expect(bars.problems).toEqual([]);
  });

  it("draws the Go library's waterfall rows by serial and its histogram, which has no values", async () => {
    const waterfall = await frame('waterfall', sent('go', 'waterfall'));
    expect(waterfall.screen.container.querySelectorAll('.waterfall-bars rect')).toHaveLength(3);
    expect(waterfall.problems).toEqual([]);

    const histogram = await frame('histogram', sent('go', 'histogram'));
    await expect.element(histogram.screen.getByText('Latency')).toBeInTheDocument();
    expect(histogram.screen.container.textContent).not.toContain('Data does not fit');
    expect(histogram.problems).toEqual([]);
  });
});
