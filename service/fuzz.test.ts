import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../src/shared/api-error';
import { defaultChannelId } from './accounts/accounts';
import {
  HOSTILE_BODIES,
  HOSTILE_QUERIES,
  HOSTILE_SEGMENTS,
  HOSTILE_VALUES,
  mutate,
  Random,
  sample,
  toJsonText,
  type JsonSchema,
  type SampleHints,
} from './fuzz-support';
import { ADMIN_SECRET, startTestService, type TestService } from './test-support';

// Every route of the OpenAPI description gets PER_ROUTE requests with NUL bytes, lone
// surrogates, 6,000 levels of nesting, huge numbers, wrong types, impossible dates and broken
// percent-encodings. None may be answered 5xx, a refusal must have the usual error body, and a
// refused write must leave every resource as it was. WALLBOARD_FUZZ_SEED replays a run;
// WALLBOARD_FUZZ_COUNT changes its size.
const SEED = Number(process.env.WALLBOARD_FUZZ_SEED ?? 20_260_521);
const PER_ROUTE = Number(process.env.WALLBOARD_FUZZ_COUNT ?? 30);

interface Operation {
  method: string;
  path: string;
  body: JsonSchema | undefined;
  hasQuery: boolean;
}

interface Fixtures {
  channelId: string;
  flowId: string;
  flowTag: string;
  boardId: string;
  widgetId: string;
  playlistId: string;
  deviceTag: string;
  scriptId: string;
}

interface Failure {
  request: string;
  status: number | string;
  answer: string;
}

let service: TestService;
let fx: Fixtures;
/** What the service logged at error level: names the cause of a 500. */
const logged: string[] = [];

async function created<T>(method: 'POST' | 'PUT', url: string, body: unknown): Promise<T> {
  const response = await service.call(method, url, body);
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.body} ${logged.join(' ')}`);
  return response.json() as T;
}

beforeAll(async () => {
  service = await startTestService({
    // A fixed clock: no device goes offline by itself while the state is being compared.
    clock: { now: () => new Date('2026-05-21T12:00:00Z') },
    logger: { level: 'error', stream: { write: (line: string) => void logged.push(line) } },
  });
  const channel = await created<{ id: string }>('POST', '/channels', {
    name: 'fuzz channel',
    parent_channel_id: defaultChannelId(),
    tag: 'fuzz-channel',
  });
  const flow = await created<{ id: string; tag: string }>('POST', '/flows', {
    tag: 'fuzz-flow',
    variant: 'custom',
    channel_id: channel.id,
  });
  await created('PUT', `/flows/${flow.tag}/metrics`, { title: 'fuzz', extra: { rows: [[1, 'a']] } });
  const board = await created<{ id: string }>('POST', '/boards', {
    name: 'fuzz board',
    channel_ids: [channel.id],
  });
  const widget = await created<{ id: string }>('POST', `/boards/${board.id}/widgets`, {
    flow_id: flow.id,
    column: 0,
    row: 0,
    width: 4,
    height: 4,
  });
  const playlist = await created<{ id: string }>('POST', '/playlists', {
    name: 'fuzz playlist',
    items: [{ type: 'board', board_id: board.id, duration: 10 }],
  });
  const device = await created<{ tag: string }>('POST', '/devices', {
    tag: 'fuzz-device',
    playlist_id: playlist.id,
  });
  const script = await created<{ id: string }>('POST', '/scripts', {
    name: 'fuzz script',
    code: 'return {}',
    interval: '1h',
    enabled: false,
  });
  await created('POST', `/channels/${channel.id}/notifications`, { title: 'fuzz', message: 'fuzz' });
  fx = {
    channelId: channel.id,
    flowId: flow.id,
    flowTag: flow.tag,
    boardId: board.id,
    widgetId: widget.id,
    playlistId: playlist.id,
    deviceTag: device.tag,
    scriptId: script.id,
  };
});
afterAll(() => service.close());

async function operations(): Promise<Operation[]> {
  const openapi = (await service.call('GET', '/openapi.json', undefined, null)).json() as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: { in: string }[];
          requestBody?: { content: { 'application/json': { schema: JsonSchema } } };
        }
      >
    >;
  };
  return Object.entries(openapi.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      body: operation.requestBody?.content['application/json'].schema,
      hasQuery: (operation.parameters ?? []).some((parameter) => parameter.in === 'query'),
    })),
  );
}

/** An existing resource for a path parameter, so that bodies reach the store. */
function existing(path: string, name: string): string | undefined {
  if (name === 'widget_id') return fx.widgetId;
  if (name === 'channel_id') return fx.channelId;
  if (name === 'tag') return path.startsWith('/devices') ? fx.deviceTag : fx.flowTag;
  const byArea: Record<string, string> = {
    flows: fx.flowId,
    channels: fx.channelId,
    boards: fx.boardId,
    playlists: fx.playlistId,
    scripts: fx.scriptId,
  };
  return byArea[path.split('/')[1] ?? ''];
}

function hints(): SampleHints {
  const ids: Record<string, string> = {
    board_id: fx.boardId,
    channel_id: fx.channelId,
    parent_channel_id: defaultChannelId(),
    channel_ids: fx.channelId,
    flow_id: fx.flowId,
    flow_tag: fx.flowTag,
    playlist_id: fx.playlistId,
  };
  return {
    idFor: (key) => ids[key],
    strings: { interval: '1h', code: 'return {}', sound_url: 'default' },
    // An enabled script would run in a host process: slow, and it writes later, on its own.
    fixed: { enabled: false },
    recordKey: fx.flowTag,
  };
}

interface FuzzRequest {
  method: string;
  url: string;
  payload: string | Buffer | undefined;
}

function fuzzRequest(op: Operation, random: Random): FuzzRequest {
  // Deleting a fixture or running a script would change what the later requests find.
  const mayUseExisting = op.method !== 'DELETE' && !op.path.endsWith('/run');
  const existingChance = op.body ? 0.7 : 0.3;
  let url = op.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = mayUseExisting ? existing(op.path, name) : undefined;
    return value !== undefined && random.chance(existingChance)
      ? encodeURIComponent(value)
      : random.pick(HOSTILE_SEGMENTS);
  });
  if (random.chance(op.hasQuery ? 0.7 : 0.1)) url += `?${random.pick(HOSTILE_QUERIES)}`;
  let payload: string | Buffer | undefined;
  if (op.body) {
    payload = random.chance(0.12)
      ? random.pick(HOSTILE_BODIES)
      : toJsonText(
          mutate(
            sample(op.body, '', hints(), random),
            random,
            (key, value) => !(key === 'enabled' && value === true),
          ),
        );
  } else if (op.method !== 'GET' && random.chance(0.2)) {
    payload = toJsonText(random.pick(HOSTILE_VALUES));
  }
  return { method: op.method, url, payload };
}

function send(request: FuzzRequest) {
  const headers: Record<string, string> = { authorization: `Bearer ${ADMIN_SECRET}` };
  if (request.payload !== undefined) headers['content-type'] = 'application/json';
  return service.app.inject({
    method: request.method as InjectOptions['method'],
    url: request.url,
    headers,
    ...(request.payload === undefined ? {} : { payload: request.payload }),
  });
}

/** Everything a write could change, but the tokens' `last_used_at` (every request sets it). */
async function state(): Promise<string> {
  const urls = [
    '/flows',
    '/channels',
    '/boards',
    `/boards/${fx.boardId}/widgets`,
    `/flows/${fx.flowTag}/metrics`,
    '/playlists',
    '/devices',
    `/devices/${fx.deviceTag}/status`,
    '/scripts',
    '/notifications?limit=500',
    '/account/tokens',
  ];
  const parts = await Promise.all(urls.map((url) => service.call('GET', url)));
  return parts
    .map((response) => response.body)
    .join('\n')
    .replace(/"last_used_at":("[^"]*"|null)/g, '');
}

function parsed(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

function describeRequest(request: FuzzRequest): string {
  const payload =
    request.payload === undefined
      ? ''
      : ` ${JSON.stringify(typeof request.payload === 'string' ? request.payload.slice(0, 160) : `<${request.payload.length} bytes>`)}`;
  return `${request.method} ${request.url.slice(0, 160)}${payload}`;
}

describe('fuzzed requests to every route', () => {
  it('are never answered 5xx, refusals have the error body, and refused writes write nothing', async () => {
    const ops = await operations();
    expect(ops.length).toBeGreaterThan(40);
    const random = new Random(SEED);
    const failures: Failure[] = [];
    const statuses = new Map<number, number>();
    let before = await state();
    for (const op of ops) {
      for (let i = 0; i < PER_ROUTE; i++) {
        const request = fuzzRequest(op, random);
        const where = describeRequest(request);
        logged.length = 0;
        let response;
        try {
          response = await send(request);
        } catch (error) {
          failures.push({ request: where, status: 'threw', answer: String(error) });
          continue;
        }
        const status = response.statusCode;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status >= 500) {
          failures.push({
            request: where,
            status,
            answer: `${response.body} ${logged.join(' ')}`.slice(0, 600),
          });
        } else if (status >= 400 && !apiErrorSchema.safeParse(parsed(response.body)).success) {
          failures.push({
            request: where,
            status,
            answer: `not the error body: ${response.body.slice(0, 300)}`,
          });
        }
        if (request.method === 'GET') continue;
        const after = await state();
        if (status >= 400 && after !== before) {
          failures.push({ request: where, status, answer: 'a refused request changed what is stored' });
        }
        before = after;
      }
    }
    const summary = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
    expect(failures, `seed ${SEED}, ${PER_ROUTE} per route; answers ${summary.join(', ')}`).toEqual([]);
  }, 600_000);
});
