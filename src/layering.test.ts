import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

async function lintProblems(path: string, code: string): Promise<Linter.LintMessage[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, path) });
  return (result?.messages ?? []).filter((m) => m.severity === 2);
}

async function lintErrors(path: string, code: string): Promise<string[]> {
  return (await lintProblems(path, code)).map((m) => m.ruleId ?? m.message);
}

/** Type-checks one in-memory file as if it stood at `path`, under the given tsconfig. */
function typeErrors(config: string, path: string, code: string): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, config),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${config}`);
  const probe = join(ROOT, path);
  const host = ts.createCompilerHost(parsed.options);
  const { getSourceFile, fileExists } = host;
  host.fileExists = (name) => name === probe || fileExists(name);
  host.getSourceFile = (name, language, ...rest) =>
    name === probe ? ts.createSourceFile(name, code, language) : getSourceFile(name, language, ...rest);
  const program = ts.createProgram({ rootNames: [probe], options: parsed.options, host });
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(probe))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

const NODE_IMPORT = "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n";
const BARE_NODE_IMPORT = "import { EventEmitter } from 'events';\nexport const E = EventEmitter;\n";
const ELECTRON_IMPORT = "import { app } from 'electron';\nexport const a = app;\n";
const DOM_USE = 'export const title = document.title;\n';

describe('layering', () => {
  it('refuses Node, Electron and the DOM in src/shared, by lint and by type check', async () => {
    for (const code of [NODE_IMPORT, BARE_NODE_IMPORT, ELECTRON_IMPORT]) {
      expect(await lintErrors('src/shared/probe.ts', code)).toContain('no-restricted-imports');
    }
    expect(await lintErrors('src/shared/probe.ts', DOM_USE)).toContain('no-restricted-globals');
    expect(typeErrors('tsconfig.shared.json', 'src/shared/probe.ts', NODE_IMPORT).join()).toMatch(/node:fs/);
    expect(typeErrors('tsconfig.shared.json', 'src/shared/probe.ts', DOM_USE).join()).toMatch(/document/);
  });

  it('refuses Node and the DOM in the guest prelude of scripts, by lint and by type check', async () => {
    const probe = 'service/scripts/host/guest/probe.ts';
    for (const code of [NODE_IMPORT, BARE_NODE_IMPORT]) {
      expect(await lintErrors(probe, code)).toContain('no-restricted-imports');
    }
    expect(await lintErrors(probe, 'export const pid = process.pid;\n')).toContain('no-restricted-globals');
    expect(typeErrors('tsconfig.guest.json', probe, NODE_IMPORT).join()).toMatch(/node:fs/);
    expect(typeErrors('tsconfig.guest.json', probe, DOM_USE).join()).toMatch(/document/);
  });

  it('refuses Node and Electron in the renderer, by lint and by type check', async () => {
    for (const code of [NODE_IMPORT, BARE_NODE_IMPORT, ELECTRON_IMPORT]) {
      expect(await lintErrors('renderer/src/probe.ts', code)).toContain('no-restricted-imports');
    }
    expect(typeErrors('tsconfig.web.json', 'renderer/src/probe.ts', NODE_IMPORT).join()).toMatch(/node:fs/);
    expect(typeErrors('tsconfig.web.json', 'renderer/src/probe.ts', DOM_USE)).toEqual([]);
  });

  it('refuses the agent and the service in the renderer, and Electron in the agent', async () => {
    expect(await lintErrors('renderer/src/probe.ts', "export * from '../../src/agent/index';\n")).toContain(
      'no-restricted-imports',
    );
    expect(await lintErrors('renderer/src/probe.ts', "export * from '../../service/app';\n")).toContain(
      'no-restricted-imports',
    );
    expect(await lintErrors('src/agent/probe.ts', ELECTRON_IMPORT)).toContain('no-restricted-imports');
  });

  it('keeps the console a browser room that may draw with the renderer, never reach the service', async () => {
    const probe = 'console/src/probe.ts';
    for (const code of [NODE_IMPORT, BARE_NODE_IMPORT, ELECTRON_IMPORT]) {
      expect(await lintErrors(probe, code)).toContain('no-restricted-imports');
    }
    expect(await lintErrors(probe, "export * from '../../service/app';\n")).toContain(
      'no-restricted-imports',
    );
    expect(await lintErrors(probe, "export * from '../../src/agent/index';\n")).toContain(
      'no-restricted-imports',
    );
    expect(await lintErrors(probe, "export * from '../../renderer/src/icons/icon';\n")).toEqual([]);
    expect(await lintErrors('renderer/src/probe.ts', "export * from '../../console/src/app';\n")).toContain(
      'no-restricted-imports',
    );
    expect(typeErrors('tsconfig.console.json', probe, NODE_IMPORT).join()).toMatch(/node:fs/);
    expect(typeErrors('tsconfig.console.json', probe, DOM_USE)).toEqual([]);
  });

  it('lets the shared layer and the renderer import what they may', async () => {
    expect(await lintErrors('src/shared/probe.ts', "export { z } from 'zod';\n")).toEqual([]);
    expect(await lintErrors('renderer/src/probe.ts', "export * from '../../src/shared/bridge';\n")).toEqual(
      [],
    );
    expect(typeErrors('tsconfig.shared.json', 'src/shared/probe.ts', "export { z } from 'zod';\n")).toEqual(
      [],
    );
  });

  it('places every folder in a room: code in a new folder fails until it is placed', async () => {
    expect(await lintErrors('src/newroom/probe.ts', 'export const x = 1;\n')).toContain(
      'no-restricted-syntax',
    );
    expect(await lintErrors('lib/probe.ts', 'export const x = 1;\n')).toContain('no-restricted-syntax');
    expect(await lintErrors('src/agent/probe.ts', 'export const x = 1;\n')).toEqual([]);
  });

  it('lets each runtime import only the rooms it names', async () => {
    const service = "export * from '../../service/app';\n";
    expect(await lintErrors('src/launcher/probe.ts', service)).toEqual([]);
    expect(await lintErrors('src/web-player/probe.ts', service)).toContain('no-restricted-imports');
    expect(await lintErrors('src/main/probe.ts', service)).toContain('no-restricted-imports');
    expect(await lintErrors('src/main/probe.ts', "export * from '../launcher/launcher';\n")).toContain(
      'no-restricted-imports',
    );
    expect(await lintErrors('src/agent/probe.ts', "export * from '../web-player/main';\n")).toContain(
      'no-restricted-imports',
    );
    expect(await lintErrors('service/probe.ts', "export * from '../src/agent/config';\n")).toContain(
      'no-restricted-imports',
    );
    const node = "export * from '../node/close-on-signals';\n";
    expect(await lintErrors('src/web-player/probe.ts', node)).toEqual([]);
    expect(await lintErrors('service/probe.ts', "export * from '../src/node/close-on-signals';\n")).toEqual(
      [],
    );
    expect(await lintErrors('src/shared/probe.ts', node)).toContain('no-restricted-imports');
  });

  it('lets each room import only the npm packages it lists, type-only imports too', async () => {
    const pg = "import { Pool } from 'pg';\nexport const P = Pool;\n";
    for (const code of [pg, "import type { Pool } from 'pg';\nexport type P = Pool;\n"]) {
      const messages = (await lintProblems('renderer/src/probe.ts', code)).map((m) => m.message);
      expect(messages).toEqual([
        expect.stringMatching(/'pg'.*add it to ROOMS\.renderer\.packages in eslint\.config\.js/),
      ]);
    }
    expect(await lintErrors('renderer/src/probe.ts', "export const load = () => import('pg');\n")).toEqual([
      'no-restricted-syntax',
    ]);
    expect(await lintErrors('renderer/src/probe.ts', "export const load = () => import('uplot');\n")).toEqual(
      [],
    );
    expect(await lintErrors('service/probe.ts', pg)).toEqual([]);
    expect(await lintErrors('service/probe.ts', "export * from 'kysely/helpers/postgres';\n")).toEqual([]);
    expect(await lintErrors('renderer/src/probe.ts', "export * from 'react-dom/client';\n")).toEqual([]);
    expect(await lintErrors('console/src/probe.ts', "import '@mantine/core/styles.css';\n")).toEqual([]);
    expect(await lintErrors('src/agent/probe.ts', "export * from 'ws';\n")).toContain(
      'no-restricted-imports',
    );
    // Node's built-ins are the platform rules' to decide; a refused UI library says why, once.
    expect(
      await lintErrors(
        'service/probe.ts',
        "import { EventEmitter } from 'events';\nexport const E = EventEmitter;\n",
      ),
    ).toEqual([]);
    const react = (await lintProblems('service/probe.ts', "export * from 'react';\n")).map((m) => m.message);
    expect(react).toEqual([expect.stringContaining('UI libraries belong in the renderer.')]);
    // Tests keep their freedom.
    expect(await lintErrors('renderer/src/probe.test.ts', pg)).toEqual([]);
  });

  it('keeps tests, their helpers and their configuration out of product code', async () => {
    for (const code of [
      "export * from '../../chromium';\n",
      "export * from './testing/fakes';\n",
      "export * from '../../service/test-support';\n",
      "export * from '../../vitest.config';\n",
    ]) {
      expect(await lintErrors('src/launcher/probe.ts', code)).toContain('no-restricted-imports');
    }
    expect(await lintErrors('src/agent/probe.test.ts', "export * from './testing/fakes';\n")).toEqual([]);
  });
});
