import { describe, expect, it } from 'vitest';
import { parseDuration, scriptCreateSchema, scriptIntervalSchema } from '../../src/shared/script';
import { ArgumentError, durationSeconds } from './duration';
import { checkPostArguments } from './notifications-library';

const ok = ['ops', '', 'Deploy', 'api is live', 10] as const;

/** The message of the error `post(...args)` throws (checked before anything is looked up). */
function refusal(...args: unknown[]): string {
  try {
    checkPostArguments(args);
  } catch (error) {
    expect(error).toBeInstanceOf(ArgumentError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(args)}`);
}

describe('duration grammar', () => {
  it('reads Go-style durations, parts adding up', () => {
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('5m')).toBe(300_000);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('1d')).toBe(86_400_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('1d2h3m4s')).toBe(93_784_000);
    expect(parseDuration('1.5h')).toBe(5_400_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('0s')).toBe(0);
  });

  it('refuses anything else', () => {
    for (const text of [
      '',
      '10',
      's',
      '5x',
      '1h 30m',
      '-5s',
      '1.s',
      '.5s',
      'h1',
      '1hh',
      '10S',
      'x'.repeat(65),
    ]) {
      expect(parseDuration(text), text).toBeNull();
    }
  });

  it('makes notification durations whole seconds, at least 1', () => {
    expect(durationSeconds(10, 'duration', 86400)).toBe(10);
    expect(durationSeconds(2.4, 'duration', 86400)).toBe(2);
    expect(durationSeconds(2.5, 'duration', 86400)).toBe(3);
    expect(durationSeconds(0.2, 'duration', 86400)).toBe(1);
    expect(durationSeconds('10s', 'duration', 86400)).toBe(10);
    expect(durationSeconds('1m', 'duration', 86400)).toBe(60);
    expect(durationSeconds('1h30m', 'duration', 86400)).toBe(5400);
    expect(durationSeconds('1500ms', 'duration', 86400)).toBe(2);
    expect(durationSeconds('100ms', 'duration', 86400)).toBe(1);
  });

  it('checks script intervals: at least 1s, at most 7d', () => {
    for (const interval of ['1s', '30s', '5m', '1h', '1d', '1h30m', '7d', '1500ms']) {
      expect(scriptIntervalSchema.safeParse(interval).success, interval).toBe(true);
    }
    for (const interval of ['0s', '999ms', '8d', '10', 'often', '']) {
      expect(scriptIntervalSchema.safeParse(interval).success, interval).toBe(false);
    }
  });

  it('names at most one flow in a script body', () => {
    const base = { name: 'x', code: 'return 1', interval: '1m' };
    expect(scriptCreateSchema.safeParse({ ...base, flow_id: 'fl_1', flow_tag: 'cpu' }).success).toBe(false);
    expect(scriptCreateSchema.parse(base)).toMatchObject({ enabled: true, timeout_seconds: 10 });
  });
});

describe('notifications.post(channel, flow, title, message, duration, icon = "", sound = "default")', () => {
  it('accepts a channel or a flow tag, with defaults for icon and sound', () => {
    expect(checkPostArguments([...ok])).toEqual({
      target: { kind: 'channel', tag: 'ops' },
      body: { title: 'Deploy', message: 'api is live', icon: '', duration: 10, sound_url: 'default' },
    });
    expect(checkPostArguments(['', 'cpu', 'T', 'M', '1m', 'fa-bug', 'https://example.com/a.mp3'])).toEqual({
      target: { kind: 'flow', tag: 'cpu' },
      body: {
        title: 'T',
        message: 'M',
        icon: 'fa-bug',
        duration: 60,
        sound_url: 'https://example.com/a.mp3',
      },
    });
    expect(checkPostArguments(['ops', '', 'T', 'M', '1h30m', undefined, undefined]).body.duration).toBe(5400);
  });

  it('needs exactly one of channel and flow, the other ""', () => {
    expect(refusal('', '', 'T', 'M', 10)).toMatch(/exactly one of channel and flow/);
    expect(refusal('ops', 'cpu', 'T', 'M', 10)).toMatch(/exactly one of channel and flow/);
    expect(refusal(undefined, '', 'T', 'M', 10)).toMatch(/channel must be a string/);
    expect(refusal(null, 'cpu', 'T', 'M', 10)).toMatch(/channel must be a string/);
    expect(refusal('ops', 5, 'T', 'M', 10)).toMatch(/flow must be a string/);
    expect(refusal('not a tag!', '', 'T', 'M', 10)).toMatch(/channel "not a tag!" is not a tag/);
    expect(refusal('', '-cpu', 'T', 'M', 10)).toMatch(/flow "-cpu" is not a tag/);
  });

  it('requires title and message, 1 to 255 characters', () => {
    expect(refusal('ops', '', undefined, 'M', 10)).toMatch(/title is required/);
    expect(refusal('ops', '', null, 'M', 10)).toMatch(/title is required/);
    expect(refusal('ops', '', 42, 'M', 10)).toMatch(/title must be a string/);
    expect(refusal('ops', '', '', 'M', 10)).toMatch(/title must not be empty/);
    expect(refusal('ops', '', 'x'.repeat(256), 'M', 10)).toMatch(/title must be at most 255 characters/);
    expect(checkPostArguments(['ops', '', 'x'.repeat(255), 'M', 10]).body.title).toHaveLength(255);
    expect(refusal('ops', '', 'T', undefined, 10)).toMatch(/message is required/);
    expect(refusal('ops', '', 'T', ['M'], 10)).toMatch(/message must be a string/);
    expect(refusal('ops', '', 'T', '', 10)).toMatch(/message must not be empty/);
    expect(refusal('ops', '', 'T', 'x'.repeat(256), 10)).toMatch(/message must be at most 255 characters/);
  });

  it('requires a duration: seconds or a duration string, at least 1 second, at most a day', () => {
    expect(refusal('ops', '', 'T', 'M')).toMatch(/duration is required/);
    expect(refusal('ops', '', 'T', 'M', 'soon')).toMatch(/duration must be a number of seconds or a string/);
    expect(refusal('ops', '', 'T', 'M', '10')).toMatch(/duration must be a number of seconds or a string/);
    expect(refusal('ops', '', 'T', 'M', true)).toMatch(/duration must be/);
    expect(refusal('ops', '', 'T', 'M', 0)).toMatch(/duration must be at least 1 second/);
    expect(refusal('ops', '', 'T', 'M', '0s')).toMatch(/duration must be at least 1 second/);
    expect(refusal('ops', '', 'T', 'M', -5)).toMatch(/duration must be at least 1 second/);
    expect(refusal('ops', '', 'T', 'M', Number.NaN)).toMatch(/duration must be a finite number/);
    expect(refusal('ops', '', 'T', 'M', '2d')).toMatch(/duration must be at most 86400 seconds/);
    expect(checkPostArguments(['ops', '', 'T', 'M', 0.3]).body.duration).toBe(1);
  });

  it('takes an icon name or "" as icon', () => {
    expect(checkPostArguments(['ops', '', 'T', 'M', 10, 'bug']).body.icon).toBe('bug');
    expect(refusal('ops', '', 'T', 'M', 10, 'Not An Icon')).toMatch(/icon must be "" or an icon name/);
    expect(refusal('ops', '', 'T', 'M', 10, 7)).toMatch(/icon must be a string/);
  });

  it('takes "default", an http(s) URL or a library medium as sound', () => {
    expect(refusal('ops', '', 'T', 'M', 10, '', 'ftp://example.com/a.mp3')).toMatch(
      /sound must be "default", an http\(s\) URL or a library medium/,
    );
    expect(refusal('ops', '', 'T', 'M', 10, '', 'ding')).toMatch(/sound must be/);
    expect(refusal('ops', '', 'T', 'M', 10, '', '')).toMatch(/sound must be/);
    expect(refusal('ops', '', 'T', 'M', 10, '', null)).toMatch(/sound must be/);
  });

  it('names the library in every message', () => {
    expect(refusal('', '', 'T', 'M', 10)).toMatch(/^notifications\.post: /);
  });
});
