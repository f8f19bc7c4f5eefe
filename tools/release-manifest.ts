import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ReleaseFile } from '../src/shared/release.ts';

/**
 * Writes `release.json` into a built web player bundle (`dist/renderer` by default), as the
 * service wants it beside the files of a web release (docs/updates.md): the version (the
 * project's, from package.json, unless given) and every file's path, size and sha512 (base64).
 *
 *   node tools/release-manifest.ts [folder] [version]
 */

export const MANIFEST_NAME = 'release.json';

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((name) => name !== MANIFEST_NAME)
    .sort();
}

async function describe(folder: string, name: string): Promise<ReleaseFile> {
  const hash = createHash('sha512');
  let size = 0;
  await pipeline(createReadStream(join(folder, name)), async function* (chunks: AsyncIterable<Buffer>) {
    for await (const chunk of chunks) {
      hash.update(chunk);
      size += chunk.length;
    }
    yield* [];
  });
  return { name, size, sha512: hash.digest('base64') };
}

/** The manifest of `folder`'s files, written into it; answers it. */
export async function writeReleaseManifest(
  folder: string,
  version: string,
): Promise<{ version: string; files: ReleaseFile[] }> {
  // The shape of releaseVersionSchema (src/shared/release.ts), which Node cannot load from here:
  // its imports name no extension. The service checks the version again.
  if (!/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.test(version))
    throw new Error(`${version} is not a semantic version like 1.4.2`);
  const checked = version;
  const files = [];
  for (const name of await filesUnder(folder)) files.push(await describe(folder, name));
  const manifest = { version: checked, files };
  await writeFile(join(folder, MANIFEST_NAME), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  const root = resolve(import.meta.dirname, '..');
  const folder = resolve(process.argv[2] ?? join(root, 'dist', 'renderer'));
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
  const manifest = await writeReleaseManifest(folder, process.argv[3] ?? pkg.version);
  process.stdout.write(
    `wrote ${join(folder, MANIFEST_NAME)}: version ${manifest.version}, ${manifest.files.length} files\n`,
  );
}
