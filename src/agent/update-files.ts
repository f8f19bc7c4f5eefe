import { createHash, randomBytes, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ReleaseFile } from '../shared/release';
import { renameDurably } from './atomic-file';
import type { Fetch } from './ports';
import { UpdateRefused } from './update-ports';

/** What a release file is checked against: its size and its sha512 (base64, as electron-builder writes it). */
export type ExpectedFile = Pick<ReleaseFile, 'name' | 'size' | 'sha512'>;

/**
 * Checks a release file as its bytes go by, so a file is never read twice: a byte past the
 * expected size refuses it at once (a server that sends more than it should is not read to the
 * end), and `finish` refuses a short file or a sha512 that differs. Every refusal is an
 * `UpdateRefused`: the release is wrong, and the same bytes would be wrong again.
 */
export class FileCheck {
  private readonly hash: Hash = createHash('sha512');
  private bytes = 0;

  constructor(private readonly expected: ExpectedFile) {}

  update(chunk: Uint8Array): void {
    this.bytes += chunk.byteLength;
    if (this.bytes > this.expected.size) {
      throw new UpdateRefused(
        `${this.expected.name}: more than the ${this.expected.size} bytes the release says it has`,
      );
    }
    this.hash.update(chunk);
  }

  finish(): void {
    const { name, size, sha512 } = this.expected;
    if (this.bytes !== size)
      throw new UpdateRefused(`${name}: ${this.bytes} bytes, the release says ${size}`);
    const actual = this.hash.digest('base64');
    if (actual !== sha512) {
      throw new UpdateRefused(`${name}: its sha512 is not the release's (got ${actual.slice(0, 16)}…)`);
    }
  }
}

/** Verifies a file on disk against its expected size and sha512, streaming; throws `UpdateRefused`. */
export async function verifyFile(path: string, expected: ExpectedFile): Promise<void> {
  const check = new FileCheck(expected);
  for await (const chunk of createReadStream(path)) check.update(chunk as Uint8Array);
  check.finish();
}

/** The address of one file of a release: its source's base + `/` + its name, each part of the name encoded. */
export function releaseFileUrl(baseUrl: string, name: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return `${base}/${name.split('/').map(encodeURIComponent).join('/')}`;
}

export interface DownloadRequest {
  url: string;
  /** The device's token, sent as a bearer token (the service serves releases to devices alone). */
  token: string;
  expected: ExpectedFile;
  /** Where the verified file goes; nothing is there unless it verified. */
  path: string;
  signal?: AbortSignal;
}

/**
 * Downloads one release file, verifying it as it streams to a temporary file beside `path`, and
 * renames it into place only once its size and sha512 match: a file that does not is never at
 * `path`, whatever was read. A `content-length` that differs from the expected size refuses the
 * file before its body is read. Refusals are `UpdateRefused`; a failed connection or an HTTP
 * error is a plain Error (the coordinator tries those again).
 */
export async function downloadVerified(fetch: Fetch, request: DownloadRequest): Promise<void> {
  const { url, expected, path, signal } = request;
  const response = await fetch(url, { headers: { authorization: `Bearer ${request.token}` }, signal });
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    // The release has no such file: asking again finds none either.
    if (response.status === 404 || response.status === 410) {
      throw new UpdateRefused(`${expected.name}: the service has no such file (${response.status})`);
    }
    throw new Error(`${expected.name}: the service answered ${response.status} for ${url}`);
  }
  const length = response.headers.get('content-length');
  if (length !== null && Number(length) !== expected.size) {
    await response.body?.cancel().catch(() => undefined);
    throw new UpdateRefused(`${expected.name}: ${length} bytes offered, the release says ${expected.size}`);
  }
  if (!response.body) throw new Error(`${expected.name}: the answer has no body`);
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${randomBytes(6).toString('hex')}.part`;
  const check = new FileCheck(expected);
  const reader = response.body.getReader();
  try {
    const handle = await open(temp, 'wx');
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        check.update(value);
        for (let at = 0; at < value.byteLength;) at += (await handle.write(value, at)).bytesWritten;
      }
      check.finish();
      await handle.sync();
    } finally {
      await handle.close();
    }
    await renameDurably(temp, path);
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  } finally {
    reader.releaseLock();
  }
}
