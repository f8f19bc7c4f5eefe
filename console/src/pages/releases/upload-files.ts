import type { ReleaseKind } from '../../../../src/shared/release';

/** A file picked for a release, with its path in the release. */
export interface PickedFile {
  name: string;
  file: File;
}

/**
 * The path of a file in the release: a folder picked whole gives `renderer/assets/index.js`
 * (its own name first), which is `assets/index.js` in the bundle; a file picked alone is its name.
 */
export function releasePathOf(file: File): string {
  const relative = file.webkitRelativePath;
  if (!relative) return file.name;
  const parts = relative.split('/');
  return parts.length > 1 ? parts.slice(1).join('/') : relative;
}

const FEED = /^latest(-[a-z0-9]+)?\.yml$/;

/** What is missing from the files picked, said plainly; null when the upload can go. */
export function missingOf(kind: ReleaseKind, picked: readonly PickedFile[]): string | null {
  if (picked.length === 0) return 'Pick the files of the release.';
  if (kind === 'shell' && !picked.some((one) => FEED.test(one.name)))
    return 'A kiosk app release needs the latest.yml (or latest-linux.yml) that electron-builder wrote beside the installer: pick it with the installer.';
  if (kind === 'web' && !picked.some((one) => one.name === 'release.json'))
    return 'A web player release needs its release.json: run "node tools/release-manifest.ts dist/renderer" after the build, then pick the dist/renderer folder.';
  return null;
}

/** The multipart body of `POST /releases`. */
export function releaseForm(
  values: { kind: ReleaseKind; channel: string; notes: string },
  picked: readonly PickedFile[],
): FormData {
  const body = new FormData();
  body.append('kind', values.kind);
  body.append('channel', values.channel);
  body.append('notes', values.notes);
  for (const one of picked) body.append('file', one.file, one.name);
  return body;
}
