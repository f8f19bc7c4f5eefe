// Where the script host's bundle is, for a service running from source (the tests, the benches):
// built on first use when it is missing or older than its sources. The bundled service (and the
// launcher) has location-bundled.ts in this file's place (tools/node-bundles.ts), which builds
// nothing: the bundle runs where esbuild, a development tool, need not be.
import { stat } from 'node:fs/promises';
import { HOST_BUNDLE, buildScriptHost, newestSource } from './build';

let ready: Promise<string> | null = null;

/** The host bundle's path, built first when missing or stale (once per process). */
export function ensureScriptHost(): Promise<string> {
  ready ??= (async () => {
    const built = await stat(HOST_BUNDLE).then(
      (file) => file.mtimeMs,
      () => 0,
    );
    if (built >= (await newestSource().catch(() => 0))) return HOST_BUNDLE;
    return buildScriptHost();
  })();
  return ready;
}
