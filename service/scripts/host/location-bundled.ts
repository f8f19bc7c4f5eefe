// Where the script host's bundle is, for the bundled service: tools/node-bundles.ts puts this file
// in place of location.ts in dist/service/server.mjs and in the launcher's bundle (which runs the
// service in its own process). `npm run build` writes the host beside them; nothing is built here.
import { access } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type * as FromSource from './location';

/** Every Node bundle is dist/<name>/<file>, so the host is ../script-host/host.cjs from each. */
const HOST_BUNDLE = fileURLToPath(new URL('../script-host/host.cjs', import.meta.url));

/** The host bundle's path; an error that says what to do when it is not there. */
export const ensureScriptHost: typeof FromSource.ensureScriptHost = async () => {
  // Checked on every start of a host (rare), so that a build made meanwhile is found.
  await access(HOST_BUNDLE).catch(() => {
    throw new Error(`the script host ${HOST_BUNDLE} is missing: run \`npm run build\``);
  });
  return HOST_BUNDLE;
};
