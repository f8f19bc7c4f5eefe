import { gzipSync } from 'node:zlib';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAP_FETCH_LIMITS, fetchText } from './fetch';
import { FeedServer } from './testing/feed-server';
import { CapFeedError } from './xml';

/**
 * The limits of one request, measured at the server on loopback: the bytes it got to write
 * before the reader stopped, and the time the reader waited for a body that never ends.
 */

const MiB = 1024 * 1024;
const feeds = new FeedServer();
beforeAll(() => feeds.start());
afterAll(() => feeds.close());

async function refusal(url: string, limits = CAP_FETCH_LIMITS): Promise<string> {
  const error = await fetchText(url, limits).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CapFeedError);
  return (error as Error).message;
}

describe('reading a feed', () => {
  it('reads a body within the limit as UTF-8 text', async () => {
    feeds.xml('/small.xml', '<alert><identifier>ÅÄÖ</identifier></alert>');
    expect(await fetchText(feeds.url('/small.xml'), CAP_FETCH_LIMITS)).toBe(
      '<alert><identifier>ÅÄÖ</identifier></alert>',
    );
  });

  it('stops reading a body without a length once it passes 1 MiB: the server wrote little more', async () => {
    // 8 MiB offered, 64 KiB at a time.
    feeds.set('/endless.xml', { kind: 'stream', chunkBytes: 64 * 1024, chunks: 128 });
    expect(await refusal(feeds.url('/endless.xml'))).toContain(`more than the ${MiB} bytes a feed may be`);
    await expect.poll(() => feeds.at('/endless.xml')[0]?.cutShort, { timeout: 5_000 }).toBe(true);
    const written = feeds.at('/endless.xml')[0]?.bytesWritten ?? 0;
    expect(written).toBeGreaterThan(MiB);
    expect(written).toBeLessThan(1.5 * MiB);
  });

  it('refuses a declared length past 1 MiB at once, before its body', async () => {
    feeds.set('/declared.xml', { kind: 'declared', declared: 4 * MiB, chunkBytes: 64 * 1024 });
    expect(await refusal(feeds.url('/declared.xml'))).toContain(
      `sent ${4 * MiB} bytes, more than the ${MiB}`,
    );
    await expect.poll(() => feeds.at('/declared.xml')[0]?.cutShort, { timeout: 5_000 }).toBe(true);
    expect(feeds.at('/declared.xml')[0]?.bytesWritten).toBeLessThan(MiB);
  });

  it('counts the bytes a compressed body unpacks to: 64 KiB of gzip that would be 16 MiB is refused', async () => {
    const packed = gzipSync(Buffer.alloc(16 * MiB, 0x20));
    expect(packed.length).toBeLessThan(64 * 1024);
    const server: Server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/xml', 'content-encoding': 'gzip' });
      response.end(packed);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      expect(await refusal(`http://127.0.0.1:${port}/bomb.xml`)).toContain(`more than the ${MiB} bytes`);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('gives up on a body that never ends once its time is up, and not much later', async () => {
    feeds.set('/hang.xml', { kind: 'hang' });
    const started = performance.now();
    const message = await refusal(feeds.url('/hang.xml'), { ...CAP_FETCH_LIMITS, timeoutMs: 400 });
    const waited = performance.now() - started;
    expect(message).toContain('no complete answer within 400 ms');
    expect(waited).toBeGreaterThanOrEqual(390);
    expect(waited).toBeLessThan(1_500);
    await expect.poll(() => feeds.at('/hang.xml')[0]?.cutShort, { timeout: 5_000 }).toBe(true);
  });

  it('says what went wrong when the feed refuses or cannot be reached', async () => {
    expect(await refusal(feeds.url('/missing.xml'))).toBe(`${new URL(feeds.url('/')).origin} answered 404`);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    expect(await refusal(`http://127.0.0.1:${port}/feed.xml`)).toMatch(/could not be read: .*ECONNREFUSED/);
  });
});
