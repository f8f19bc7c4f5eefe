import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReleaseFile, ReleaseOffer } from '../../shared/release';

/** A release file as the service describes it: its size and sha512 in base64 (electron-builder's way). */
export function describeFile(name: string, bytes: Uint8Array): ReleaseFile {
  return { name, size: bytes.byteLength, sha512: createHash('sha512').update(bytes).digest('base64') };
}

/**
 * electron-builder's `latest*.yml` for a release whose first file is the installer, as its
 * generic provider publishes it (electron-updater reads `version`, `files`, `path`, `sha512`).
 */
export function latestYml(
  version: string,
  files: readonly ReleaseFile[],
  releaseDate = '2026-11-28T00:00:00.000Z',
): string {
  const main = files[0];
  if (!main) throw new Error('a release needs a file');
  const lines = [`version: ${version}`, 'files:'];
  for (const file of files) {
    lines.push(`  - url: ${file.name}`, `    sha512: ${file.sha512}`, `    size: ${file.size}`);
  }
  lines.push(`path: ${main.name}`, `sha512: ${main.sha512}`, `releaseDate: '${releaseDate}'`);
  return `${lines.join('\n')}\n`;
}

export interface ServedRequest {
  path: string;
  authorization: string | undefined;
  headers: IncomingMessage['headers'];
}

/**
 * A real HTTP server on loopback that serves release files by path, to devices that send its
 * token (401 otherwise, 404 for a path it has not), the way the service serves an offer's files:
 * for the tests of the download, the verification and electron-updater's generic provider.
 * `put` replaces what a path serves, so a test can tamper with a file after its sha512 was taken.
 */
export class ReleaseServer {
  readonly requests: ServedRequest[] = [];
  private readonly files = new Map<string, Uint8Array>();
  private server: Server | null = null;

  constructor(readonly token: string) {}

  get url(): string {
    const address = this.server?.address() as AddressInfo | null;
    if (!address) throw new Error('the release server is not started');
    return `http://127.0.0.1:${address.port}`;
  }

  put(path: string, bytes: Uint8Array | string): void {
    this.files.set(path, typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes);
  }

  /** An offer of `files` served under `path` (the files must be `put` there too). */
  offer(path: string, fields: Pick<ReleaseOffer, 'kind' | 'version' | 'files'>): ReleaseOffer {
    return {
      release_id: `rel_${fields.version.replaceAll('.', '_')}`,
      channel: 'stable',
      base_url: path,
      ...fields,
    };
  }

  async start(): Promise<this> {
    const server = createServer((request, response) => {
      const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
      this.requests.push({ path, authorization: request.headers.authorization, headers: request.headers });
      if (request.headers.authorization !== `Bearer ${this.token}`) {
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end('{"error":{"code":"unauthorized","message":"no token","details":[]}}');
        return;
      }
      const bytes = this.files.get(path);
      if (!bytes) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end('{"error":{"code":"not_found","message":"no such file","details":[]}}');
        return;
      }
      response.writeHead(200, {
        'content-type': path.endsWith('.yml') ? 'text/yaml' : 'application/octet-stream',
        'content-length': String(bytes.byteLength),
      });
      response.end(bytes);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
