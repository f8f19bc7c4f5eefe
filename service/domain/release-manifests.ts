import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { FieldIssue } from '../../src/shared/issues';
import {
  releaseFileNameSchema,
  releaseFileSchema,
  releaseVersionSchema,
  type ReleaseFile,
  type ReleaseKind,
} from '../../src/shared/release';
import { invalid } from './errors';

/**
 * What an upload of a release must hold, and the check of every file against it
 * (docs/updates.md): the shell's `latest*.yml` feeds as electron-builder writes them, the web
 * player's `release.json`. A release whose files do not match is refused whole, naming the file.
 */

/** A file received, hashed on the way. */
export interface ReceivedReleaseFile {
  name: string;
  size: number;
  /** base64, as the feeds write it. */
  sha512: string;
}

/** electron-updater's feed files, one per platform. */
export const FEED_NAME = /^latest(-[a-z0-9]+)?\.yml$/;
export const WEB_MANIFEST = 'release.json';

interface Manifest {
  version: string;
  files: ReleaseFile[];
}

const FILES_NEEDED = 'needs files: a list of url, sha512 and size';
const feedSchema = z.object({
  version: releaseVersionSchema,
  files: z
    .array(
      z.object({ url: releaseFileNameSchema, sha512: releaseFileSchema.shape.sha512, size: z.int().min(0) }),
      { error: FILES_NEEDED },
    )
    .min(1, FILES_NEEDED),
});

/**
 * Reads an electron-builder feed's `version` and `files` (each `url`, `sha512`, `size`; the older
 * top-level `path` and `sha512` alone give no size, and are refused). Other keys (`releaseDate`,
 * `releaseNotes`, …) are passed over. Anything it cannot read is a 400 naming the file.
 */
export function parseFeed(name: string, text: string): Manifest {
  const bad = (message: string, issues: FieldIssue[] = [{ path: `files.${name}`, message }]) =>
    invalid(`${name} is not an electron-builder feed: ${message}`, issues);
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    throw bad((error as Error).message.split('\n')[0] ?? 'unreadable YAML');
  }
  const parsed = feedSchema.safeParse(document);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: ['files', name, ...issue.path.map(String)].join('.'),
      message: issue.message,
    }));
    throw bad(
      issues.map((issue) => `${issue.path.slice(`files.${name}.`.length)}: ${issue.message}`).join('; '),
      issues,
    );
  }
  const { version, files } = parsed.data;
  return { version, files: files.map(({ url, sha512, size }) => ({ name: url, sha512, size })) };
}

const webManifestSchema = z.object({
  version: releaseVersionSchema,
  files: z.array(releaseFileSchema).min(1),
});

/** The web bundle's `release.json`: `{version, files: [{name, size, sha512}]}`. */
export function parseWebManifest(text: string): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw invalid(`${WEB_MANIFEST} is not JSON: ${(error as Error).message}`);
  }
  const parsed = webManifestSchema.safeParse(json);
  if (!parsed.success)
    throw invalid(
      `${WEB_MANIFEST} is not {version, files: [{name, size, sha512}]}`,
      parsed.error.issues.map((issue) => ({
        path: [WEB_MANIFEST, ...issue.path.map(String)].join('.'),
        message: issue.message,
      })),
    );
  return parsed.data;
}

/** The names a shell release may hold beside those its feeds list: the feeds and blockmaps. */
const isShellExtra = (name: string) => FEED_NAME.test(name) || name.endsWith('.blockmap');

/**
 * Checks the received files of a release against its manifests and answers its version and
 * files (what screens are offered: every file kept, with its sha512). Refuses (400, naming the
 * file) a file that does not match, one named but missing, one named by nothing, two manifests
 * of different versions.
 */
export function checkRelease(
  kind: ReleaseKind,
  received: readonly ReceivedReleaseFile[],
  manifests: ReadonlyMap<string, string>,
): Manifest {
  const byName = new Map(received.map((file) => [file.name, file]));
  const issues: FieldIssue[] = [];
  const parsed: Manifest[] = [];
  if (kind === 'shell') {
    if (manifests.size === 0)
      throw invalid(
        'a shell release holds the latest.yml (or latest-linux.yml, latest-mac.yml) electron-builder wrote beside its files',
        [{ path: 'files', message: 'add latest.yml or latest-<platform>.yml' }],
      );
    for (const [name, text] of manifests) parsed.push(parseFeed(name, text));
  } else {
    const text = manifests.get(WEB_MANIFEST);
    if (text === undefined)
      throw invalid(
        `a web release holds ${WEB_MANIFEST} beside its files (node tools/release-manifest.ts dist/renderer writes it)`,
        [{ path: 'files', message: `add ${WEB_MANIFEST}` }],
      );
    parsed.push(parseWebManifest(text));
  }
  const version = parsed[0]?.version ?? '';
  for (const other of parsed)
    if (other.version !== version)
      throw invalid(
        `the feeds name different versions (${version}, ${other.version}): upload one version at a time`,
      );
  const named = new Map<string, ReleaseFile>();
  for (const file of parsed.flatMap((manifest) => manifest.files)) {
    const seen = named.get(file.name);
    if (seen && (seen.sha512 !== file.sha512 || seen.size !== file.size))
      issues.push({ path: `files.${file.name}`, message: 'the feeds give it different sha512s or sizes' });
    named.set(file.name, file);
  }
  for (const file of named.values()) {
    const got = byName.get(file.name);
    if (!got) issues.push({ path: `files.${file.name}`, message: 'named by the manifest but not uploaded' });
    else if (got.size !== file.size)
      issues.push({
        path: `files.${file.name}`,
        message: `is ${got.size} bytes, the manifest says ${file.size}`,
      });
    else if (got.sha512 !== file.sha512)
      issues.push({ path: `files.${file.name}`, message: 'its sha512 is not the one the manifest gives' });
  }
  for (const file of received) {
    if (named.has(file.name) || (kind === 'shell' && isShellExtra(file.name))) continue;
    if (kind === 'web' && file.name === WEB_MANIFEST) continue;
    issues.push({ path: `files.${file.name}`, message: 'is named by no manifest of the release' });
  }
  if (issues.length > 0)
    throw invalid(
      `the release's files do not match its manifest: ${issues.map((issue) => `${issue.path.slice(6)} ${issue.message}`).join('; ')}; nothing was kept`,
      issues,
    );
  const kept = received.filter((file) => !(kind === 'web' && file.name === WEB_MANIFEST));
  return {
    version,
    files: kept.map((file) => ({ name: file.name, size: file.size, sha512: file.sha512 })),
  };
}

/** Whether a name is a release file's: relative, without `.` or `..` parts. */
export const isReleaseFileName = (name: string) => releaseFileNameSchema.safeParse(name).success;
