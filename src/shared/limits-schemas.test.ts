import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { boardCreateSchema } from './board';
import { boardImportSchema } from './board-export';
import { channelCreateSchema } from './channel';
import { idSchema } from './common';
import { deviceCreateSchema, heartbeatSchema } from './device';
import { flowCreateSchema, flowUpdateSchema } from './flow';
import { toFieldIssues } from './issues';
import { DEPTH_MESSAGE, JSON_DEPTH_MAX, NUL_MESSAGE, SURROGATE_MESSAGE, UNIX_SECONDS_MAX } from './limits';
import { metricsDataSchema, parseMetrics } from './metrics';
import { notificationCreateSchema } from './notification';
import { playlistCreateSchema } from './playlist';
import { scriptCreateSchema } from './script';
import { tokenCreateSchema } from './token';
import { widgetCreateSchema } from './widget';

// Every schema of a stored resource applies the rules of limits.ts to each of its free-text
// fields and JSON values: a valid body with one value poisoned is refused at that path.

type Path = (string | number)[];

/** A copy of `body` with the value at `path` replaced (the path must exist, but for its last step). */
function poisoned(body: unknown, path: Path, value: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let node = copy;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  node[path[path.length - 1] as string | number] = value;
  return copy;
}

function issuesOf(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  return result.success ? [] : toFieldIssues(result.error);
}

const heartbeat = {
  app_version: '0.1.0',
  os: 'linux',
  cpu_load: 1,
  memory: { total_bytes: 1, used_bytes: 1 },
  uptime_seconds: 1,
  display: null,
  cache: { bytes: 0, items: 0 },
  showing: 'waiting',
  recoveries: ['gpu'],
};
const board = {
  name: 'Ops',
  aspect_ratio: '16:9',
  font_family: 'normal',
  background_url: 'https://e.x/a.png',
};
const imported = {
  name: 'Ops',
  widgets: [
    { flow: { tag: 'cpu', data: { value: 1 } }, variant: 'value', column: 0, row: 0, width: 1, height: 1 },
  ],
};

/** [what, schema, a valid body, the paths of its free-text fields] */
const TEXT_FIELDS: [string, z.ZodType, unknown, Path[]][] = [
  ['an id', idSchema, 'b_1', [[]]],
  [
    'a flow',
    flowCreateSchema,
    { tag: 'cpu', variant: 'value', channel_id: 'c1', source: 's1' },
    [['channel_id'], ['source']],
  ],
  [
    'a channel',
    channelCreateSchema,
    { name: 'Ops', parent_channel_id: 'c1' },
    [['name'], ['parent_channel_id']],
  ],
  [
    'a board',
    boardCreateSchema,
    { ...board, channel_ids: ['c1'] },
    [['name'], ['aspect_ratio'], ['font_family'], ['background_url'], ['channel_ids', 0]],
  ],
  [
    'a device',
    deviceCreateSchema,
    { tag: 'lobby', name: 'Lobby', description: 'Hall' },
    [['name'], ['description']],
  ],
  ['a heartbeat', heartbeatSchema, heartbeat, [['app_version'], ['os'], ['showing'], ['recoveries', 0]]],
  [
    'a notification',
    notificationCreateSchema,
    { title: 'Deploy', message: 'done', sound_url: 'https://e.x/a.mp3' },
    [['title'], ['message'], ['sound_url']],
  ],
  [
    'a playlist',
    playlistCreateSchema,
    {
      name: 'Hall',
      items: [
        { type: 'image', url: 'https://e.x/a.png', duration: 5 },
        { type: 'board', board_id: 'b1', duration: 5 },
      ],
    },
    [['name'], ['items', 0, 'url'], ['items', 1, 'board_id']],
  ],
  ['a script', scriptCreateSchema, { name: 'Feed', code: 'return {}', interval: '1m' }, [['name'], ['code']]],
  ['a token', tokenCreateSchema, { scope: 'full', name: 'ci' }, [['name']]],
  ['a widget', widgetCreateSchema, { flow_id: 'f1', column: 0, row: 0, width: 1, height: 1 }, [['flow_id']]],
];

/** [what, schema, a valid body, the path of its JSON value] */
const JSON_FIELDS: [string, z.ZodType, unknown, Path][] = [
  [
    'flow parameters on create',
    flowCreateSchema,
    { tag: 'cpu', variant: 'value', parameters: { a: 1 } },
    ['parameters'],
  ],
  ['flow parameters on update', flowUpdateSchema, { parameters: { a: 1 } }, ['parameters']],
  ['metrics', metricsDataSchema, { a: 1 }, []],
  ['the metrics of an imported flow', boardImportSchema, imported, ['widgets', 0, 'flow', 'data']],
];

describe.each(TEXT_FIELDS)('%s', (_what, schema, body, paths) => {
  it('is valid as given', () => {
    expect(issuesOf(schema, body)).toEqual([]);
  });

  it.each(paths.map((path) => [path.join('.') || '(the value)', path] as const))(
    'refuses NUL and lone surrogates in %s, naming it',
    (_name, path) => {
      const good = path.reduce<unknown>(
        (node, step) => (node as Record<string | number, unknown>)[step],
        body,
      );
      for (const [bad, message] of [
        [`${String(good)}\u0000`, NUL_MESSAGE],
        [`${String(good)}\ud800`, SURROGATE_MESSAGE],
      ] as const) {
        const input = path.length === 0 ? bad : poisoned(body, path, bad);
        expect(issuesOf(schema, input)).toEqual([{ path: path.join('.'), message }]);
      }
    },
  );
});

describe.each(JSON_FIELDS)('%s', (_what, schema, body, path) => {
  const at = (...rest: Path) => [...path, ...rest].join('.');
  const withValue = (value: unknown) => (path.length === 0 ? value : poisoned(body, path, value));

  it('is valid as given', () => {
    expect(issuesOf(schema, body)).toEqual([]);
  });

  it('refuses NUL and lone surrogates in its strings and keys, naming where', () => {
    expect(issuesOf(schema, withValue({ list: ['ok', 'x\u0000'] }))).toEqual([
      { path: at('list', 1), message: NUL_MESSAGE },
    ]);
    expect(issuesOf(schema, withValue({ deep: { '\udc00': 1 } }))).toEqual([
      { path: at('deep', '\udc00'), message: `as a key, ${SURROGATE_MESSAGE}` },
    ]);
  });

  it(`refuses nesting past ${JSON_DEPTH_MAX} levels, where it goes past`, () => {
    let deep: unknown = {};
    for (let i = 0; i < 6000; i++) deep = { a: deep };
    const issues = issuesOf(schema, withValue(deep));
    expect(issues).toEqual([
      { path: at(...Array<string>(JSON_DEPTH_MAX).fill('a')), message: DEPTH_MESSAGE },
    ]);
  });
});

describe('metrics', () => {
  it('apply the JSON rules to the fields a variant does not know, on every variant', () => {
    const result = parseMetrics('text', { text: 'fine', extra: { note: 'bad\u0000' } });
    expect(result.success ? [] : toFieldIssues(result.error)).toEqual([
      { path: 'extra.note', message: NUL_MESSAGE },
    ]);
    expect(parseMetrics('custom', { anything: ['\ud800'] }).success).toBe(false);
  });

  it('refuse unix seconds past year 9999', () => {
    expect(parseMetrics('countdown', { time: UNIX_SECONDS_MAX }).success).toBe(true);
    const result = parseMetrics('countdown', { time: UNIX_SECONDS_MAX + 1 });
    expect(result.success ? [] : toFieldIssues(result.error)).toEqual([
      { path: 'time', message: `must be unix seconds, at most ${UNIX_SECONDS_MAX} (9999-12-31)` },
    ]);
  });
});

describe('widget stacking', () => {
  it('holds a 32-bit index and no more', () => {
    const widget = { flow_id: 'f1', column: 0, row: 0, width: 1, height: 1 };
    expect(issuesOf(widgetCreateSchema, { ...widget, in_board_index: 2 ** 31 - 1 })).toEqual([]);
    expect(issuesOf(widgetCreateSchema, { ...widget, in_board_index: 2 ** 31 })).toEqual([
      { path: 'in_board_index', message: 'must be at most 2147483647' },
    ]);
  });
});
