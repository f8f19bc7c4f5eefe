import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_SECRET, startTestService, type TestService } from '../../../../../service/test-support';
import { VARIANT_EXAMPLES } from '../../../../../src/shared/variant-examples';
import { VARIANTS, type Variant } from '../../../../../src/shared/variants';
import { dataProblems, formatData, parseData, type DataProblem } from './data-problems';

/** The text a problem points at. */
const marked = (text: string, problem: DataProblem) => text.slice(problem.from, problem.to);

const lines = (...rows: string[]) => rows.join('\n');

describe('syntax', () => {
  it('names a missing comma in plain words, where it belongs: after the value on the line above', () => {
    const text = lines('{', '  "value": 1', '  "label": "CPU"', '}');
    const [problem, ...more] = dataProblems('value', text);
    expect(more).toEqual([]);
    expect(problem).toMatchObject({ line: 2, path: '', message: 'a comma is missing' });
    expect(problem!.from).toBe(text.indexOf('1') + 1);
    expect(dataProblems('value', '{"value" 1}')).toMatchObject([
      { from: 8, message: expect.stringContaining('colon') },
    ]);
  });

  it('reports one problem per line, and each line that has one', () => {
    const text = lines('{', '  "value": 1', '  "label": "CPU"', '  "color": #fff', '}');
    expect(dataProblems('value', text).map(({ line }) => line)).toEqual([2, 3, 4]);
  });

  it('refuses comments and trailing commas, as the API does', () => {
    const comment = lines('{', '  "value": 1 // percent', '}');
    expect(dataProblems('value', comment)).toMatchObject([
      { line: 2, message: 'comments are not allowed in JSON' },
    ]);
    const trailing = lines('{', '  "value": 1,', '}');
    const [comma] = dataProblems('value', trailing);
    expect(comma).toMatchObject({ line: 2, message: 'JSON allows no comma after the last item' });
    expect(marked(trailing, comma!)).toBe(',');
    expect(dataProblems('piechart', '{"values": [1, 2,]}')).toMatchObject([
      { from: 16, to: 17, message: 'JSON allows no comma after the last item' },
    ]);
  });

  it('says the text ends too soon, at its end', () => {
    const text = lines('{', '  "value": 1');
    expect(dataProblems('value', text)).toEqual([
      {
        from: text.length,
        to: text.length,
        line: 2,
        path: '',
        message: 'unexpected end of the data: a comma or } is missing',
      },
    ]);
    expect(dataProblems('value', '')).toMatchObject([
      { line: 1, message: expect.stringContaining('unexpected end') },
    ]);
  });

  it('points at unquoted names and broken strings', () => {
    const unquoted = lines('{', '  value: 1', '}');
    const [problem] = dataProblems('value', unquoted);
    expect(problem).toMatchObject({ line: 2, message: expect.stringContaining('double quotes') });
    expect(marked(unquoted, problem!)).toBe('value');
    expect(dataProblems('text', '{"text": "a\tb"}')).toMatchObject([
      { message: expect.stringContaining('\\t') },
    ]);
  });
});

describe('the variant', () => {
  it('reports a wrong type on the line of the value, marking the value', () => {
    const text = lines('{', '  "title": "Memory",', '  "value": "high",', '  "max": 100', '}');
    const problems = dataProblems('gauge', text);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      line: 3,
      path: 'value',
      message: expect.stringContaining('expected number'),
    });
    expect(marked(text, problems[0]!)).toBe('"high"');
  });

  it('reports a nested bad value at its own line', () => {
    const text = formatData({
      value: 1,
      range: [
        { from: 0, to: 1, color: '#00ff00' },
        { from: 1, to: 2, color: 7 },
      ],
    });
    const [problem] = dataProblems('gauge', text);
    expect(problem).toMatchObject({
      path: 'range.1.color',
      line: text.split('\n').findIndex((l) => l.includes(': 7')) + 1,
    });
    expect(marked(text, problem!)).toBe('7');
  });

  it('places a missing required field at the object that lacks it', () => {
    const top = lines('{', '  "max": 100', '}');
    const [missing] = dataProblems('gauge', top);
    expect(missing).toMatchObject({
      line: 1,
      path: 'value',
      message: expect.stringContaining('expected number'),
    });
    expect(marked(top, missing!)).toBe('{');

    const nested = lines('{', '  "coords": {', '    "lat": 48.8', '  }', '}');
    const [lon] = dataProblems('map', nested);
    expect(lon).toMatchObject({ line: 2, path: 'coords.lon' });
    expect(marked(nested, lon!)).toBe('"coords"');

    const inList = lines('{', '  "series": [', '    { "label": "a" }', '  ]', '}');
    const [values] = dataProblems('graph', inList);
    expect(values).toMatchObject({ line: 3, path: 'series.0.values' });
    expect(marked(inList, values!)).toBe('{');
  });

  it('names a wrong container by its key rather than underlining all of it', () => {
    const text = lines('{', '  "bars": {', '    "a": 1', '  }', '}');
    const [problem] = dataProblems('barchart', text);
    expect(problem).toMatchObject({ line: 2, path: 'bars' });
    expect(marked(text, problem!)).toBe('"bars"');
  });

  it('keeps the limits: a title over 255 characters', () => {
    const text = formatData({ title: 'x'.repeat(256), value: 1 });
    const [problem] = dataProblems('value', text);
    expect(problem).toMatchObject({ line: 2, path: 'title', message: 'must be at most 255 characters' });
    expect(dataProblems('value', formatData({ title: 'x'.repeat(255), value: 1 }))).toEqual([]);
  });

  it('keeps the storage rules: no NUL, at the key when the key holds it', () => {
    const text = lines('{', '  "value": 1,', '  "a\\u0000b": 2', '}');
    const [problem] = dataProblems('value', text);
    expect(problem).toMatchObject({
      line: 3,
      message: expect.stringMatching(/^as a key, must not contain the NUL/),
    });
    expect(marked(text, problem!)).toBe('"a\\u0000b"');
  });

  it('refuses data that is no object, and accepts {} for every variant', () => {
    expect(dataProblems('value', '[1, 2]')).toMatchObject([{ path: '', message: 'must be a JSON object' }]);
    for (const variant of VARIANTS) expect(dataProblems(variant, '{}')).toEqual([]);
  });

  it('accepts the example of every variant', () => {
    for (const variant of VARIANTS) {
      expect([variant, dataProblems(variant, formatData(VARIANT_EXAMPLES[variant].example))]).toEqual([
        variant,
        [],
      ]);
    }
  });
});

describe('parseData', () => {
  it('gives the object of valid JSON, whatever the variant, else null', () => {
    expect(parseData('{"value": "not a number"}')).toEqual({ value: 'not a number' });
    expect(parseData('[1]')).toBeNull();
    expect(parseData('{"a": 1,}')).toBeNull();
    expect(parseData('{"a": 1} // note')).toBeNull();
  });
});

describe('the same answer as the API', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  const variants: Variant[] = ['gauge', 'graph', 'map', 'video', 'value', 'countdown'];
  const bad: [Variant, unknown][] = [
    ['gauge', { value: 'high', range: [{ from: 0, to: 1, color: 7 }] }],
    ['gauge', { max: 100 }],
    ['graph', { series: [{ label: 'a' }, { values: [1, 'two'] }], renderer: 'pie' }],
    ['map', { coords: { lat: 91 } }],
    ['video', { poster: 'https://example.com/p.png' }],
    ['value', { value: 1, title: 'x'.repeat(256), 'a\u0000': 1 }],
    ['countdown', { time: -5, message: 'x'.repeat(300) }],
    ['value', [1, 2]],
    ['value', { value: 1, deep: JSON.parse(`${'['.repeat(100)}${']'.repeat(100)}`) }],
  ];

  it('gives the messages and paths of PUT /flows/:tag/metrics for bad data', async () => {
    for (const variant of variants) {
      const created = await service.call('POST', '/flows', { tag: `editor-${variant}`, variant });
      expect(created.statusCode, created.body).toBe(201);
    }
    for (const [variant, data] of bad) {
      const response = await service.call('PUT', `/flows/editor-${variant}/metrics`, data);
      expect(response.statusCode, response.body).toBe(400);
      const answered = (response.json() as { error: { details: { path: string; message: string }[] } }).error
        .details;
      const problems = dataProblems(variant, formatData(data));
      expect(problems.length, JSON.stringify(data)).toBeGreaterThan(0);
      expect(
        problems.map(({ path, message }) => ({ path: path ? `body.${path}` : 'body', message })),
      ).toEqual(answered);
    }
  });

  it('refuses what the JSON parser of the API refuses: __proto__, constructor.prototype, deep nesting', async () => {
    const cases: [string, string | null][] = [
      ['{"value": 1, "__proto__": {"x": 1}}', '"__proto__"'],
      ['{"value": 1, "constructor": {"prototype": {"x": 1}}}', '"constructor"'],
      [`{"value": 1, "deep": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`, null],
    ];
    for (const [text, at] of cases) {
      const response = await service.app.inject({
        method: 'PUT',
        url: '/flows/editor-value/metrics',
        headers: { authorization: `Bearer ${ADMIN_SECRET}`, 'content-type': 'application/json' },
        payload: text,
      });
      expect(response.statusCode, text.slice(0, 60)).toBe(400);
      const [problem, ...more] = dataProblems('value', text);
      expect(more).toEqual([]);
      if (at) expect(marked(text, problem!)).toBe(at);
    }
    expect(dataProblems('value', '{"value": 1, "constructor": {"name": "x"}}')).toEqual([]);
  });
});

describe('large data', () => {
  it('names every bad item of a long list at its own line', () => {
    const values = Array.from({ length: 5000 }, (_, index) => (index % 2 ? index : String(index)));
    const text = formatData({ values });
    const problems = dataProblems('piechart', text);
    expect(problems).toHaveLength(2500);
    expect(problems[0]).toMatchObject({ line: 3, path: 'values.0' });
    expect(problems.at(-1)).toMatchObject({ line: 5001, path: 'values.4998' });
  });
});
