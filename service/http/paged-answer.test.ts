import Fastify, { type FastifyInstance } from 'fastify';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { withAccount, currentAccount } from '../accounts/scope';
import { answerSerializer } from './answers';
import { sendPages } from './paged-answer';

// A paged answer (paged-answer.ts) over a real socket: each page is built as the client takes the
// one before, in the request's own context; what refuses the request at its first page is an error
// answer, a later failure cuts the answer short.
const item = z.object({ n: z.number(), account: z.string(), text: z.string() });
/** About 1 MB a page: the socket's buffers hold a few pages, never all of them. */
const PAGE_ITEMS = 100;
const TEXT = 'x'.repeat(10_000);
const PAGES = 50;

let app: FastifyInstance | undefined;
afterEach(() => app?.close());

/** A server answering `pages` at /list, in account "acme"; the pages built so far. */
async function serve(fail?: { at: number }): Promise<{ url: string; built: () => number }> {
  let built = 0;
  async function* pages() {
    for (let page = 0; page < PAGES; page += 1) {
      if (fail?.at === page) throw new Error(`page ${page} could not be read`);
      built += 1;
      yield Array.from({ length: PAGE_ITEMS }, (_, index) => ({
        n: page * PAGE_ITEMS + index,
        account: currentAccount() ?? 'none',
        text: TEXT,
      }));
      await sleep(0);
    }
  }
  app = Fastify({ logger: false });
  app.setSerializerCompiler(answerSerializer(true));
  app.get('/list', (_request, reply) => withAccount('acme', () => sendPages(reply, z.array(item), pages())));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/list`, built: () => built };
}

/** The answer's status and body; `paused`: the client reads nothing for that long first. */
function get(url: string, paused = 0): Promise<{ status: number; body: string; complete: boolean }> {
  return new Promise((resolve, reject) => {
    request(url, (response) => {
      response.pause();
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      const done = () =>
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString(),
          complete: response.complete,
        });
      response.on('end', done);
      response.on('error', done);
      response.on('aborted', done);
      setTimeout(() => response.resume(), paused);
    })
      .on('error', reject)
      .end();
  });
}

it('builds each page as the client takes the one before, and answers them all as one array', async () => {
  const server = await serve();
  const answer = get(server.url, 500);
  await sleep(400);
  // The client has read nothing: the socket's buffers hold a few pages of the 50.
  expect(server.built()).toBeLessThan(20);
  const { status, body } = await answer;
  expect(status).toBe(200);
  expect(server.built()).toBe(PAGES);
  const items = z.array(item).parse(JSON.parse(body));
  expect(items.map(({ n }) => n)).toEqual(Array.from({ length: PAGES * PAGE_ITEMS }, (_, n) => n));
  // Every page was read in the request's account, though the socket asked for them.
  expect(new Set(items.map(({ account }) => account))).toEqual(new Set(['acme']));
});

it('answers a failure at the first page as an error, and cuts the answer short at a later one', async () => {
  const first = await serve({ at: 0 });
  const refused = await get(first.url);
  expect(refused.status).toBe(500);
  expect(JSON.parse(refused.body)).toMatchObject({ message: 'page 0 could not be read' });
  await app?.close();
  const later = await serve({ at: 3 });
  const cut = await get(later.url);
  expect(cut.status).toBe(200);
  expect(cut.complete).toBe(false);
  expect(() => JSON.parse(cut.body)).toThrow();
});

it('answers an empty list as []', async () => {
  app = Fastify({ logger: false });
  app.setSerializerCompiler(answerSerializer(true));
  app.get('/list', (_request, reply) => sendPages(reply, z.array(item), (async function* () {})()));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { status, body } = await get(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/list`);
  expect(status).toBe(200);
  expect(JSON.parse(body)).toEqual([]);
});
