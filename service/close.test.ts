// app.close() on a listening app: what it closes, and that nothing a peer does can hold it long.
// (The process around it, signals and exit status, is in server.test.ts.)
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { connect as connectTcp } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientToServerEvents, ServerToClientEvents } from '../src/shared/events';
import { ADMIN_SECRET, startTestService, type TestService } from './test-support';

const GRACE_MS = 300;
let service: TestService | null = null;
const clients: Socket<ServerToClientEvents, ClientToServerEvents>[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.disconnect();
  // Closing twice is harmless: each test closes the app itself.
  await service?.close();
  service = null;
});

async function listening(): Promise<{ service: TestService; url: string }> {
  service = await startTestService({ closeGraceMs: GRACE_MS });
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  return { service, url: `http://127.0.0.1:${(service.app.server.address() as AddressInfo).port}` };
}

async function timeClose(target: TestService): Promise<number> {
  const started = performance.now();
  await target.app.close();
  return performance.now() - started;
}

describe('closing the app', () => {
  it('drops every device socket as a lost transport, so devices reconnect by themselves', async () => {
    const { service, url } = await listening();
    const reasons: string[] = [];
    for (let i = 0; i < 20; i++) {
      const client = io(url, {
        transports: ['websocket'],
        auth: { token: ADMIN_SECRET },
        reconnection: false,
      });
      client.on('disconnect', (reason) => reasons.push(reason));
      clients.push(client);
    }
    await Promise.all(
      clients.map((client) => new Promise((resolve) => client.once('connect', () => resolve(null)))),
    );
    expect(await timeClose(service)).toBeLessThan(GRACE_MS);
    await expect.poll(() => reasons).toHaveLength(20);
    expect(new Set(reasons)).toEqual(new Set(['transport close']));
  });

  it('answers a script run under way 503 at once instead of waiting for the script', async () => {
    const { service, url } = await listening();
    const created = await service.call('POST', '/scripts', {
      name: 'forever',
      code: 'while (true) {}',
      interval: '1h',
      enabled: false,
      timeout_seconds: 60,
    });
    const { id } = created.json() as { id: string };
    const run = fetch(`${url}/scripts/${id}/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_SECRET}` },
    });
    // Under way: its slot counts toward the account's script time (in tenths of a second).
    await expect
      .poll(async () => (await service.call('GET', '/scripts/usage')).json().script_time.used_seconds, {
        timeout: 15_000,
      })
      .toBeGreaterThan(0);
    expect(await timeClose(service)).toBeLessThan(GRACE_MS);
    const answer = await run;
    expect(answer.status).toBe(503);
    // Said so that a client does not keep the connection for another request.
    expect(answer.headers.get('connection')).toBe('close');
  });

  it('cuts a request that does not finish within the grace', async () => {
    const { service, url } = await listening();
    const { port } = new URL(url);
    const upload = connectTcp(Number(port), '127.0.0.1');
    upload.on('error', () => undefined);
    await once(upload, 'connect');
    const parsed = once(service.app.server, 'request');
    upload.write(
      `POST /flows HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_SECRET}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"type": ',
    );
    // Parsed, so the connection is busy and not simply dropped as idle.
    await parsed;
    const closed = once(upload, 'close');
    const ms = await timeClose(service);
    expect(ms).toBeGreaterThanOrEqual(GRACE_MS - 10);
    expect(ms).toBeLessThan(GRACE_MS + 1000);
    await closed;
  });
});
