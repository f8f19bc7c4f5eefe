import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { ORIGINAL_VARIANT_DATA } from '../../../src/shared/testing/original-variant-data';
import type { Variant } from '../../../src/shared/variants';
import { framed } from '../widgets/testing/lists-frame';

/** The data a client of the original product sent for `variant`, stored as it was sent. */
const sent = (client: string, variant: Variant) =>
  ORIGINAL_VARIANT_DATA.find((c) => c.client === client && c.variant === variant)!.sent;

/** The widget drawing that data in its frame, and the problems it reported. */
async function frame(variant: Variant, data: Record<string, unknown>) {
  const problems: string[] = [];
  const screen = await render(
    framed(variant, data, { width: 640, height: 320, onProblem: (message) => problems.push(message) }),
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
