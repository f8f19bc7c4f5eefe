// The import rules of .dependency-cruiser.cjs (run by `npm run lint`) on a planted tree: a circle
// of imports and an import from a lower level of the service back up are found, and named.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type ICruiseResult, type IFlattenedRuleSet } from 'dependency-cruiser';
import { afterEach, describe, expect, it } from 'vitest';

const { forbidden } = createRequire(import.meta.url)('../.dependency-cruiser.cjs') as IFlattenedRuleSet;

let planted: string | null = null;
afterEach(async () => {
  if (planted) await rm(planted, { recursive: true, force: true });
  planted = null;
});

/** The rules broken by a tree of `files` (path -> source), by rule name and the importing file. */
async function broken(files: Record<string, string>): Promise<string[]> {
  planted = await mkdtemp(join(tmpdir(), 'import-rules-'));
  for (const [path, source] of Object.entries(files)) {
    await mkdir(dirname(join(planted, path)), { recursive: true });
    await writeFile(join(planted, path), source);
  }
  const { output } = await cruise(['service'], {
    baseDir: planted,
    ruleSet: { forbidden },
    validate: true,
    tsPreCompilationDeps: true,
  });
  const { violations } = (output as ICruiseResult).summary;
  return violations.map((violation) => `${violation.rule.name}: ${violation.from}`).sort();
}

describe('the import rules', () => {
  it('find a circle of imports, type-only imports included', async () => {
    // One violation a circle, named at one of its files.
    expect(
      await broken({
        'service/realtime/hub.ts':
          "import { connect } from './cluster';\nexport type Hub = number;\nconnect();\n",
        'service/realtime/cluster.ts':
          "import type { Hub } from './hub';\nexport const connect = (hub?: Hub) => hub;\n",
      }),
    ).toEqual([expect.stringMatching(/^no-circular: service\/realtime\/(hub|cluster)\.ts$/)]);
  });

  it("find an import from the service's lower levels back up", async () => {
    expect(
      await broken({
        'service/routes/flows.ts': 'export const route = 1;\n',
        'service/actions/flows.ts':
          "import { route } from '../routes/flows';\nexport const action = route;\n",
        'service/repositories/flows.ts':
          "import { action } from '../actions/flows';\nexport const read = action;\n",
        'service/db/open.ts': "import { read } from '../repositories/flows';\nexport const open = read;\n",
      }),
    ).toEqual([
      'service-levels-actions: service/actions/flows.ts',
      'service-levels-db: service/db/open.ts',
      'service-levels-repositories: service/repositories/flows.ts',
    ]);
  });

  it('let the levels import downwards, and tests reach across them', async () => {
    expect(
      await broken({
        'service/db/open.ts': 'export const open = 1;\n',
        'service/repositories/flows.ts': "import { open } from '../db/open';\nexport const read = open;\n",
        'service/actions/flows.ts':
          "import { read } from '../repositories/flows';\nexport const action = read;\n",
        'service/routes/flows.ts':
          "import { action } from '../actions/flows';\nexport const route = action;\n",
        'service/db/open.test.ts': "import { route } from '../routes/flows';\nexport const seen = route;\n",
      }),
    ).toEqual([]);
  });
});
