import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS_WAITING_MAX, SCREENSHOT_MAX_BYTES, type Command } from '../src/shared/command';
import { COMMANDS_PASS_INTERVAL_MS } from './jobs/commands';
import { ADMIN_SECRET, eventsAfter, lastEventId, startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';
import { solidPng } from './testing/png';
import { clientsOf, hello, listen, nextEvent } from './testing/realtime-clients';

const MINUTE = 60_000;

let service: TestService;
let url = '';
const clock = new FakeClock('2026-11-21T07:00:00.000Z');
const clients = clientsOf(() => url);

beforeAll(async () => {
  service = await startTestService({ clock });
  url = await listen(service);
  for (const tag of ['lobby', 'kitchen', 'hall', 'flood']) {
    expect((await service.call('POST', '/devices', { tag })).statusCode).toBe(201);
  }
});
afterEach(() => clients.closeAll());
afterAll(() => service.close());

async function send(tag: string, type: string, token?: string): Promise<Command> {
  const response = await service.call('POST', `/devices/${tag}/commands`, { type }, token);
  expect(response.statusCode, response.body).toBe(202);
  return response.json();
}

const report = (tag: string, id: string, body: object, token?: string) =>
  service.call('POST', `/devices/${tag}/commands/${id}/result`, body, token);

const read = async (tag: string, id: string): Promise<Command> =>
  (await service.call('GET', `/devices/${tag}/commands/${id}`)).json();

describe('sending a command', () => {
  it('answers 202 with the queued command and pushes it to the device room', async () => {
    const mark = await lastEventId(service.db);
    const command = await send('lobby', 'identify');
    expect(command).toEqual({
      id: expect.stringMatching(/^cmd_/),
      device_tag: 'lobby',
      type: 'identify',
      status: 'queued',
      reason: null,
      created_at: '2026-11-21T07:00:00.000Z',
      updated_at: '2026-11-21T07:00:00.000Z',
      expires_at: '2026-11-21T08:00:00.000Z',
    });
    expect(await eventsAfter(service.db, mark)).toEqual([
      { type: 'command.created', rooms: ['device:lobby'], payload: { command } },
    ]);
    expect(await read('lobby', command.id)).toEqual(command);
  });

  it('reaches a connected device at once', async () => {
    const socket = clients.open();
    await hello(socket, null, 'kitchen');
    const event = nextEvent(socket);
    const command = await send('kitchen', 'reload');
    expect(await event).toMatchObject({ type: 'command.created', command });
  });

  it('waits for a device that is away: replayed at its hello, and listed as queued', async () => {
    const first = clients.open();
    const seen = (await hello(first, null, 'hall')).last_event_id;
    first.disconnect();
    const command = await send('hall', 'screenshot');

    const back = clients.open();
    const ack = await hello(back, seen, 'hall');
    expect(ack.resync).toBe(false);
    expect(ack.events).toContainEqual(expect.objectContaining({ type: 'command.created', command }));
    const queued = await service.call('GET', '/devices/hall/commands?status=queued');
    expect(queued.json()).toEqual([command]);
  });

  it('refuses what is not a command, an unknown device, and weaker tokens', async () => {
    const bad = await service.call('POST', '/devices/lobby/commands', { type: 'format-disk' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details).toEqual([
      { path: 'body.type', message: expect.stringContaining('reload') },
    ]);
    expect((await service.call('POST', '/devices/nobody/commands', { type: 'reload' })).statusCode).toBe(404);
    for (const scope of ['readonly', 'affiliated'] as const) {
      const response = await service.call(
        'POST',
        '/devices/lobby/commands',
        { type: 'reload' },
        await service.tokenOf(scope),
      );
      expect(response.statusCode, scope).toBe(403);
    }
  });

  it(`keeps at most ${COMMANDS_WAITING_MAX} waiting per device, and names the limit`, async () => {
    for (let i = 0; i < COMMANDS_WAITING_MAX; i++) await send('flood', 'identify');
    const refused = await service.call('POST', '/devices/flood/commands', { type: 'identify' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toContain(`${COMMANDS_WAITING_MAX} commands waiting`);
    const all = (await service.call('GET', '/devices/flood/commands')).json() as Command[];
    expect(all).toHaveLength(COMMANDS_WAITING_MAX);
  });
});

describe('following a command', () => {
  it('goes from queued to delivered to done, a repeated report changing nothing', async () => {
    const device = await service.tokenOf('affiliated');
    const command = await send('lobby', 'reload');
    await clock.advance(1000);
    const delivered = await report('lobby', command.id, { status: 'delivered' }, device);
    expect(delivered.statusCode).toBe(200);
    expect(delivered.json()).toMatchObject({ status: 'delivered', updated_at: '2026-11-21T07:00:01.000Z' });
    expect((await report('lobby', command.id, { status: 'done' }, device)).json()).toMatchObject({
      status: 'done',
      reason: null,
    });
    expect((await report('lobby', command.id, { status: 'done' }, device)).statusCode).toBe(200);
    const late = await report('lobby', command.id, { status: 'failed', reason: 'late' }, device);
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(`command ${command.id} is done; it cannot become failed`);
    expect(await read('lobby', command.id)).toMatchObject({ status: 'done' });
  });

  it('keeps the reason of a failure, and asks for one', async () => {
    const command = await send('lobby', 'screenshot');
    const silent = await report('lobby', command.id, { status: 'failed' });
    expect(silent.statusCode).toBe(400);
    expect(silent.json().error.details).toEqual([
      { path: 'body.reason', message: 'is required when the status is "failed"' },
    ]);
    await report('lobby', command.id, { status: 'failed', reason: 'no page answered within 30 s' });
    expect(await read('lobby', command.id)).toMatchObject({
      status: 'failed',
      reason: 'no page answered within 30 s',
    });
  });

  it("is 404 under another device's tag, and for a token bound to another device", async () => {
    const command = await send('lobby', 'identify');
    expect((await service.call('GET', `/devices/kitchen/commands/${command.id}`)).statusCode).toBe(404);
    expect((await report('kitchen', command.id, { status: 'done' })).statusCode).toBe(404);
    const bound = await service.call('POST', '/account/tokens', {
      scope: 'affiliated',
      device_tag: 'kitchen',
    });
    const kitchen = bound.json().token as string;
    const probe = await service.call('GET', `/devices/lobby/commands/${command.id}`, undefined, kitchen);
    expect(probe.statusCode).toBe(404);
    expect(probe.json().error.message).toBe('device lobby not found');
    expect((await report('lobby', command.id, { status: 'done' }, kitchen)).statusCode).toBe(404);
    expect((await service.call('GET', '/devices/lobby/commands', undefined, kitchen)).statusCode).toBe(404);
    expect(await read('lobby', command.id)).toMatchObject({ status: 'queued' });
  });

  it('expires an unfinished command an hour after it was sent, by the job on the clock', async () => {
    await service.call('POST', '/devices', { tag: 'away' });
    const waiting = await send('away', 'restart');
    const taken = await send('away', 'screenshot');
    await report('away', taken.id, { status: 'delivered' });

    await clock.advance(60 * MINUTE - COMMANDS_PASS_INTERVAL_MS);
    expect(await read('away', waiting.id)).toMatchObject({ status: 'queued' });
    await clock.advance(2 * COMMANDS_PASS_INTERVAL_MS);
    expect(await read('away', waiting.id)).toMatchObject({
      status: 'failed',
      reason: 'expired: the device did not take it within 1 h',
    });
    expect(await read('away', taken.id)).toMatchObject({
      status: 'failed',
      reason: 'expired: the device took it but did not report an outcome within 1 h',
    });
    expect((await service.call('GET', '/devices/away/commands?status=queued')).json()).toEqual([]);
    // The device comes back too late to run it.
    expect((await report('away', waiting.id, { status: 'delivered' })).statusCode).toBe(409);
  });

  it('goes with its device', async () => {
    await service.call('POST', '/devices', { tag: 'gone' });
    const command = await send('gone', 'identify');
    expect((await service.call('DELETE', '/devices/gone')).statusCode).toBe(204);
    await service.call('POST', '/devices', { tag: 'gone' });
    expect((await service.call('GET', `/devices/gone/commands/${command.id}`)).statusCode).toBe(404);
  });
});

describe('screenshots', () => {
  const put = (tag: string, body: Buffer | string, type = 'image/png', token?: string) =>
    service.app.inject({
      method: 'PUT',
      url: `/devices/${tag}/screenshot`,
      headers: { 'content-type': type, authorization: `Bearer ${token ?? ADMIN_SECRET}` },
      payload: body,
    });

  it('keeps the newest PNG of a device and answers it with the time it was taken', async () => {
    const device = await service.tokenOf('affiliated');
    expect((await service.call('GET', '/devices/lobby/screenshot')).json().error.message).toBe(
      'device lobby has no screenshot yet: send it a "screenshot" command',
    );
    const first = await put('lobby', solidPng(320, 200, 10), 'image/png', device);
    expect(first.statusCode, first.body).toBe(200);
    const png = solidPng(640, 360, 200);
    await clock.advance(5000);
    const stored = await put('lobby', png, 'image/png', device);
    expect(stored.json()).toEqual({
      device_tag: 'lobby',
      taken_at: clock.now().toISOString(),
      width: 640,
      height: 360,
      bytes: png.length,
    });
    const answer = await service.call(
      'GET',
      '/devices/lobby/screenshot',
      undefined,
      await service.tokenOf('readonly'),
    );
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('image/png');
    expect(answer.headers['x-screenshot-at']).toBe(clock.now().toISOString());
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.rawPayload.equals(png)).toBe(true);
  });

  it('refuses what is not a PNG, other types, too much, and other devices', async () => {
    const notPng = await put('kitchen', 'GIF89a and more bytes than a header');
    expect(notPng.statusCode).toBe(400);
    expect(notPng.json().error.message).toBe('the body is not a PNG image');
    const json = await put('kitchen', '{"png": "..."}', 'application/json');
    expect(json.statusCode).toBe(415);
    expect(json.json().error.code).toBe('unsupported_media_type');
    const huge = Buffer.concat([solidPng(1, 1), Buffer.alloc(SCREENSHOT_MAX_BYTES)]);
    expect((await put('kitchen', huge)).statusCode).toBe(413);
    expect((await put('nobody', solidPng(2, 2))).statusCode).toBe(404);
    const bound = await service.call('POST', '/account/tokens', {
      scope: 'affiliated',
      device_tag: 'kitchen',
    });
    expect((await put('lobby', solidPng(2, 2), 'image/png', bound.json().token)).statusCode).toBe(404);
    expect((await service.call('GET', '/devices/kitchen/screenshot')).statusCode).toBe(404);
  });
});
