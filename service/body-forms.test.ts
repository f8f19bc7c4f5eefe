// Bodies as the original product's clients send them (docs/compatibility.md): the Go library and
// the Ruby gem send `Content-Type: application/json` on every DELETE with nothing after it, and the
// Node client sends its bodies with no content type at all, chunked. Over a real socket, as they do.
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_SECRET, startTestService, type TestService } from './test-support';

let service: TestService;
let port: number;

beforeAll(async () => {
  service = await startTestService();
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  port = (service.app.server.address() as AddressInfo).port;
});
afterAll(() => service.close());

/** A request as those clients write it: `body` chunked (no length), headers as given. */
function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { authorization: `Bearer ${ADMIN_SECRET}`, ...headers },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, json: text ? JSON.parse(text) : null }),
        );
      },
    );
    outgoing.on('error', reject);
    if (body !== undefined) outgoing.write(body);
    outgoing.end();
  });
}

const JSON_TYPE = { 'content-type': 'application/json' };
const boardCount = async () => ((await service.call('GET', '/boards')).json() as unknown[]).length;

describe('an empty body sent as JSON', () => {
  it('is no body: a DELETE with it deletes', async () => {
    const board = (await service.call('POST', '/boards', { name: 'Gone' })).json() as { id: string };
    const deleted = await send('DELETE', `/boards/${board.id}`, { ...JSON_TYPE, 'content-length': '0' });
    expect(deleted.status).toBe(204);
    expect((await service.call('GET', `/boards/${board.id}`)).statusCode).toBe(404);
  });

  it('is no body where a body may be left out, and still a 400 naming the body where one is needed', async () => {
    await service.call('POST', '/flows', { tag: 'cpu', variant: 'value' });
    const errored = await send('POST', '/flows/cpu/error', { ...JSON_TYPE, 'content-length': '0' });
    expect(errored).toMatchObject({ status: 200, json: { errored: true } });

    const before = await boardCount();
    const refused = await send('POST', '/boards', { ...JSON_TYPE, 'content-length': '0' });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.json)).toContain('"body');
    expect(await boardCount()).toBe(before);
  });
});

describe('a body without a content type', () => {
  it('is read as JSON, sent chunked as the Node client does', async () => {
    const before = await boardCount();
    const created = await send('POST', '/boards', {}, JSON.stringify({ name: 'From Node' }));
    expect(created).toMatchObject({ status: 201, json: { name: 'From Node' } });
    expect(await boardCount()).toBe(before + 1);
  });

  it('keeps JSON’s refusals: malformed text and prototype keys are 400, and nothing is made', async () => {
    const before = await boardCount();
    expect((await send('POST', '/boards', {}, '{"name": ')).status).toBe(400);
    const poisoned = await send('POST', '/boards', {}, '{"name": "P", "__proto__": {"admin": true}}');
    expect(poisoned.status).toBe(400);
    expect(await boardCount()).toBe(before);
  });
});

it('still refuses a body of another type with 415, making nothing', async () => {
  const before = await boardCount();
  const refused = await send('POST', '/boards', { 'content-type': 'text/plain' }, '{"name": "Plain"}');
  expect(refused).toMatchObject({ status: 415, json: { error: { code: 'unsupported_media_type' } } });
  expect(await boardCount()).toBe(before);
});
