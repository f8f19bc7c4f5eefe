import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../service/test-support';
import { VARIANT_EXAMPLES } from '../src/shared/variant-examples';
import { variantFields } from '../src/shared/variant-shapes';
import { VARIANTS, WEB_VARIANTS, type Variant } from '../src/shared/variants';
import { REGENERATE, WIDGETS_DOC, renderWidgetsDoc } from './variant-docs';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

const generated = () =>
  renderWidgetsDoc({
    variants: VARIANTS,
    web: WEB_VARIANTS,
    examples: VARIANT_EXAMPLES,
    fields: variantFields,
  });

describe('docs/widgets.md', () => {
  it('is what the generator writes from the examples and the schemas', async () => {
    const current = await readFile(WIDGETS_DOC, 'utf8');
    expect(current, `docs/widgets.md is out of date: run \`${REGENERATE}\` (on Node 24)`).toBe(
      await generated(),
    );
  });

  it('is checked by the command that writes it, run by Node alone', async () => {
    // Exits 1 on a difference; an error here would also say that the command no longer runs.
    await expect(
      run(process.execPath, ['tools/variant-docs.ts', '--check'], { cwd: ROOT }),
    ).resolves.toBeTruthy();
  });

  it('shows each variant with its fields and its example', async () => {
    const page = await generated();
    for (const variant of VARIANTS) {
      const section = sectionOf(page, variant);
      expect(section).toContain(VARIANT_EXAMPLES[variant].description);
      for (const field of variantFields(variant).filter((candidate) => !candidate.common)) {
        expect(section).toContain(`| \`${field.name}\``);
      }
      const pointer = 'Needs the network: see [api/web-content.md](api/web-content.md).';
      expect(section.includes(pointer), variant).toBe(WEB_VARIANTS.includes(variant));
    }
  });
});

describe('the curl examples of docs/widgets.md', () => {
  let service: TestService;
  let address = '';
  let token = '';

  beforeAll(async () => {
    // The weather example has coordinates: its forecast job must not reach the internet.
    service = await startTestService({ config: { weatherUrl: 'http://127.0.0.1:9' } });
    await service.app.listen({ port: 0, host: '127.0.0.1' });
    address = `http://127.0.0.1:${(service.app.server.address() as AddressInfo).port}`;
    // The weaker of the two scopes the page names.
    token = await service.tokenOf('affiliated');
  });

  afterAll(() => service.close());

  it.each(VARIANTS)('push the example of %s, as written, to a flow of that variant', async (variant) => {
    const command = /```sh\n([\s\S]*?)```/.exec(sectionOf(await readFile(WIDGETS_DOC, 'utf8'), variant))?.[1];
    const tag = /\/flows\/([^/]+)\/metrics/.exec(command ?? '')?.[1];
    expect(command && tag).toBeTruthy();
    const created = await service.call('POST', '/flows', { tag, variant });
    expect(created.statusCode, created.body).toBe(201);

    const { stdout } = await run('bash', ['-c', command ?? ''], {
      env: { ...process.env, S: address, T: token },
    });
    expect(JSON.parse(stdout)).toEqual(VARIANT_EXAMPLES[variant].example);
    const stored = await service.call('GET', `/flows/${tag}/metrics`);
    expect(stored.json()).toEqual(VARIANT_EXAMPLES[variant].example);
  });
});

/** The text under `## <variant>`, to the next heading. */
function sectionOf(page: string, variant: Variant): string {
  const start = page.indexOf(`\n## ${variant}\n`);
  expect(start, `no section for ${variant}`).toBeGreaterThan(0);
  const end = page.indexOf('\n## ', start + 1);
  return page.slice(start, end === -1 ? undefined : end);
}
