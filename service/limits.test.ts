import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DATE_RANGE_MESSAGE,
  DEPTH_MESSAGE,
  JSON_DEPTH_MAX,
  NUL_MESSAGE,
  SURROGATE_MESSAGE,
} from '../src/shared/limits';
import { PATH_PARAM_MAX } from './http/errors';
import { ADMIN_SECRET, startTestService, type TestService } from './test-support';

// The red-team findings, one by one, on the real app: each was a 500 and is now a 400 that names
// the field, and a refused request writes nothing. fuzz.test.ts sends many more of their kind.

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
  expect((await service.call('POST', '/flows', { tag: 'cpu', variant: 'value' })).statusCode).toBe(201);
  expect((await service.call('POST', '/devices', { tag: 'lobby' })).statusCode).toBe(201);
});
afterAll(() => service.close());

/** JSON text sent as written: lone surrogates as `\ud800` escapes, nesting no encoder would make. */
function sendText(method: 'POST' | 'PUT' | 'PATCH', url: string, text: string) {
  return service.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${ADMIN_SECRET}`, 'content-type': 'application/json' },
    payload: text,
  });
}

function refusal(response: { statusCode: number; json(): unknown }) {
  expect(response.statusCode).toBe(400);
  return (response.json() as { error: { code: string; message: string; details: unknown[] } }).error;
}

const deepObject = (levels: number, inner: string) => '{"a":'.repeat(levels) + inner + '}'.repeat(levels);
const pathOfA = (prefix: string) => [prefix, ...Array<string>(JSON_DEPTH_MAX).fill('a')].join('.');

describe('dates', () => {
  it('refuses GET /notifications?since=0000-01-01T00:00:00Z, naming the parameter', async () => {
    const error = refusal(await service.call('GET', '/notifications?since=0000-01-01T00:00:00Z'));
    expect(error).toEqual({
      code: 'invalid_request',
      message: `invalid request: querystring.since: ${DATE_RANGE_MESSAGE}`,
      details: [{ path: 'querystring.since', message: DATE_RANGE_MESSAGE }],
    });
    const late = refusal(await service.call('GET', '/notifications?since=%2B275760-09-13T00:00:00Z'));
    expect(late.details).toEqual([{ path: 'querystring.since', message: 'must be an ISO 8601 date-time' }]);
    expect((await service.call('GET', '/notifications?since=1970-01-01T00:00:00Z')).statusCode).toBe(200);
  });
});

describe('path parameters', () => {
  it('refuses %00 in an id or a tag', async () => {
    expect(refusal(await service.call('GET', '/flows/%00')).details).toEqual([
      { path: 'params.id', message: NUL_MESSAGE },
    ]);
    expect(refusal(await service.call('DELETE', '/notifications/n%00')).details).toEqual([
      { path: 'params.id', message: NUL_MESSAGE },
    ]);
    expect(
      refusal(await service.call('POST', '/channels/c%00/notifications', { sound_url: 'default' })).details,
    ).toEqual([{ path: 'params.channel_id', message: NUL_MESSAGE }]);
    expect(refusal(await service.call('GET', '/devices/%00')).details).toEqual([
      { path: 'params.tag', message: expect.stringMatching(/^must be 1 to 100 letters/) },
    ]);
  });

  it('refuses percent-encodings that do not decode to UTF-8, with the usual error body', async () => {
    for (const segment of ['%zz', '%', '%E0%A4%A', '%ED%A0%80', '%C0%80', '%FF']) {
      const error = refusal(await service.call('GET', `/flows/${segment}`));
      expect(error, segment).toEqual({
        code: 'invalid_request',
        message: 'invalid request: params: must be valid percent-encoded UTF-8',
        details: [{ path: 'params', message: 'must be valid percent-encoded UTF-8' }],
      });
    }
  });

  it("refuses a long parameter with the field's own message, an absurd one with the router's", async () => {
    expect(refusal(await service.call('GET', `/flows/${'x'.repeat(300)}`)).details).toEqual([
      { path: 'params.id', message: 'must be at most 100 characters' },
    ]);
    expect(refusal(await service.call('GET', `/flows/${'x'.repeat(PATH_PARAM_MAX + 1)}`)).details).toEqual([
      { path: 'params', message: `must be at most ${PATH_PARAM_MAX} characters each` },
    ]);
  });
});

describe('stored JSON', () => {
  it('refuses a lone surrogate in metrics, and keeps the metrics as they were', async () => {
    expect((await service.call('PUT', '/flows/cpu/metrics', { value: 1 })).statusCode).toBe(200);
    const error = refusal(await sendText('PUT', '/flows/cpu/metrics', '{"value":2,"note":"\\ud800"}'));
    expect(error.details).toEqual([{ path: 'body.note', message: SURROGATE_MESSAGE }]);
    expect(refusal(await sendText('PATCH', '/flows/cpu/metrics', '{"n\\u0000":1}')).details).toEqual([
      { path: 'body.n\u0000', message: `as a key, ${NUL_MESSAGE}` },
    ]);
    expect((await service.call('GET', '/flows/cpu/metrics')).json()).toEqual({ value: 1 });
  });

  it('refuses 6,000 levels of nesting in flow parameters, creating no flow', async () => {
    const before = (await service.call('GET', '/flows')).json() as unknown[];
    const body = `{"tag":"deep","variant":"value","parameters":${deepObject(6000, '1')}}`;
    const error = refusal(await sendText('POST', '/flows', body));
    expect(error.details).toEqual([{ path: pathOfA('body.parameters'), message: DEPTH_MESSAGE }]);
    expect((await service.call('GET', '/flows')).json()).toEqual(before);
  });

  it('refuses a NUL in the metrics of an imported board, creating no board and no flow', async () => {
    const board = {
      name: 'Imported',
      widgets: [
        { tag: 'new-flow', variant: 'value', column: 0, row: 0, width: 1, height: 1 },
        {
          flow: { tag: 'other', data: { value: 1, label: 'bad\u0000' } },
          variant: 'value',
          column: 1,
          row: 0,
          width: 1,
          height: 1,
        },
      ],
    };
    const error = refusal(await service.call('POST', '/boards/import', board));
    expect(error.details).toEqual([{ path: 'body.widgets.1.flow.data.label', message: NUL_MESSAGE }]);
    expect((await service.call('GET', '/boards')).json()).toEqual([]);
    expect((await service.call('GET', '/flows/new-flow')).statusCode).toBe(404);
  });

  it('refuses, within a batch, keys that are no tags and entries past the limits, writing the others', async () => {
    const text = `{"data":{"cpu":{"value":3},"bad\\u0000tag":{"value":1},"deep":${deepObject(6000, '1')}}}`;
    const response = await sendText('POST', '/metrics', text);
    expect(response.statusCode).toBe(200);
    const answer = response.json() as {
      updated: string[];
      error_details: { tag: string; details: unknown[] }[];
    };
    expect(answer.updated).toEqual(['cpu']);
    expect(answer.error_details.map((entry) => entry.tag)).toEqual(['bad\u0000tag', 'deep']);
    expect(answer.error_details[1]?.details).toEqual([
      { path: pathOfA('body.data.deep'), message: DEPTH_MESSAGE },
    ]);
  });
});

describe('strings', () => {
  it('refuses a NUL in a heartbeat, which stores nothing', async () => {
    const heartbeat = {
      app_version: '1.0.0',
      os: 'linux\u0000',
      cpu_load: 1,
      memory: { total_bytes: 1, used_bytes: 1 },
      uptime_seconds: 1,
      display: null,
      cache: { bytes: 0, items: 0 },
      showing: 'waiting',
    };
    expect(refusal(await service.call('POST', '/devices/lobby/heartbeat', heartbeat)).details).toEqual([
      { path: 'body.os', message: NUL_MESSAGE },
    ]);
    expect((await service.call('GET', '/devices/lobby/status')).statusCode).toBe(404);
    expect((await service.call('GET', '/devices/lobby')).json()).toMatchObject({ online: false });
  });

  it('refuses a NUL in a name and a lone surrogate in script code', async () => {
    expect(refusal(await service.call('POST', '/boards', { name: 'Ops\u0000' })).details).toEqual([
      { path: 'body.name', message: NUL_MESSAGE },
    ]);
    const script = { name: 'feed', code: 'return {"x": "\ud800"}', interval: '1h', enabled: false };
    expect(refusal(await service.call('POST', '/scripts', script)).details).toEqual([
      { path: 'body.code', message: SURROGATE_MESSAGE },
    ]);
    expect((await service.call('GET', '/scripts')).json()).toEqual([]);
  });
});
