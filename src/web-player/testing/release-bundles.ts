// Releases of the web player made from folders on disk, for tests: the offer a service would send
// for a folder (each file's size and sha512), and a fetch that reads the files from it.
import { createHash } from 'node:crypto';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { ReleaseFile, ReleaseOffer } from '../../shared/release';
import type { FetchReleaseFile } from '../web-versions';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/** The offer of `dir`'s files as release `version` (release id `rel_<version>`). */
export async function offerOfFolder(dir: string, version: string): Promise<ReleaseOffer> {
  const files: ReleaseFile[] = [];
  for (const name of await filesUnder(dir)) {
    const bytes = await readFile(join(dir, name));
    files.push({ name, size: bytes.length, sha512: createHash('sha512').update(bytes).digest('base64') });
  }
  return {
    release_id: `rel_${version.replace(/\W/g, '_')}`,
    kind: 'web',
    channel: 'stable',
    version,
    files,
    base_url: `/releases/rel_${version}/files`,
  };
}

/** Serves each file of an offer from `dir` (what is there now: a test may have changed it). */
export function fetchFromFolder(dir: string): FetchReleaseFile {
  return async (_offer, file) => {
    const bytes = await readFile(join(dir, file.name)).catch(() => null);
    return bytes ? new Response(new Uint8Array(bytes)) : new Response('no such file', { status: 404 });
  };
}

/**
 * A copy of a built renderer (dist/renderer) whose page carries a visible mark once its app has
 * drawn: a square of `color` in its top left corner, above the app, and its version in the title.
 */
export async function markedBundle(
  from: string,
  to: string,
  mark: { version: string; color: string },
): Promise<void> {
  await cp(from, to, { recursive: true });
  const index = join(to, 'index.html');
  const html = await readFile(index, 'utf8');
  // Shown only once the app has drawn into #root, so a page that is there but shows nothing yet
  // has no mark. A spinner inside it: something changes at every frame, so the browser draws (and
  // a recording of its frames sees) every one of them.
  const square =
    `<style>@keyframes version-mark-spin { to { transform: rotate(360deg) } } #root:empty ~ #version-mark { display: none }</style>` +
    `<div id="version-mark" style="position:fixed;left:0;top:0;width:64px;height:64px;background:${mark.color};z-index:1000000">` +
    `<div style="position:absolute;left:40px;top:40px;width:16px;height:16px;background:#000;animation:version-mark-spin 1s linear infinite"></div></div>`;
  await writeFile(
    index,
    html
      .replace('<title>Wallboard</title>', `<title>Wallboard ${mark.version}</title>`)
      .replace('<div id="root"></div>', `<div id="root"></div>${square}`),
  );
  // The build's compressed copies would be served in place of the changed page.
  for (const copy of ['index.html.br', 'index.html.gz']) await rm(join(to, copy), { force: true });
}
