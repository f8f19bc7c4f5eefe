import { describe, expect, it } from 'vitest';
import { toFieldIssues } from './issues';
import { notificationCreateSchema } from './notification';

function issuesOf(input: unknown) {
  const result = notificationCreateSchema.safeParse(input);
  expect(result.success).toBe(false);
  return result.success ? [] : toFieldIssues(result.error);
}

describe('notification creation', () => {
  it('accepts title and message, filling the default duration of 10 seconds', () => {
    expect(notificationCreateSchema.parse({ title: 'Deploy', message: 'v2 is live' })).toEqual({
      title: 'Deploy',
      message: 'v2 is live',
      duration: 10,
    });
  });

  it('accepts a sound alone, and all three together', () => {
    expect(notificationCreateSchema.parse({ sound_url: 'default' }).sound_url).toBe('default');
    const all = notificationCreateSchema.parse({
      title: 'Alarm',
      message: 'Disk full',
      sound_url: 'https://example.com/alarm.mp3',
      icon: 'fa-bug',
      duration: 1,
    });
    expect(all).toMatchObject({ sound_url: 'https://example.com/alarm.mp3', icon: 'fa-bug', duration: 1 });
  });

  it('refuses a body with neither text nor sound', () => {
    expect(issuesOf({})).toEqual([
      { path: '', message: 'give title and message, or sound_url, or all three' },
    ]);
    expect(issuesOf({ icon: 'bug', duration: 5 })).toHaveLength(1);
  });

  it('refuses a title without its message and a message without its title, naming the missing one', () => {
    expect(issuesOf({ title: 'Only a title' })).toEqual([
      { path: 'message', message: 'is required when title is given' },
    ]);
    expect(issuesOf({ message: 'Only a message', sound_url: 'default' })).toEqual([
      { path: 'title', message: 'is required when message is given' },
    ]);
  });

  it('allows 255 characters of title and message and refuses 256', () => {
    const ok = 'x'.repeat(255);
    expect(notificationCreateSchema.parse({ title: ok, message: ok }).title).toHaveLength(255);
    expect(issuesOf({ title: `${ok}x`, message: 'm' })).toEqual([
      { path: 'title', message: 'must be at most 255 characters' },
    ]);
    expect(issuesOf({ title: 't', message: `${ok}x` })).toEqual([
      { path: 'message', message: 'must be at most 255 characters' },
    ]);
  });

  it('keeps duration at least 1 whole second', () => {
    expect(issuesOf({ title: 't', message: 'm', duration: 0 })).toEqual([
      { path: 'duration', message: 'must be at least 1 second' },
    ]);
    expect(issuesOf({ title: 't', message: 'm', duration: 2.5 })[0]?.path).toBe('duration');
    expect(issuesOf({ title: 't', message: 'm', duration: '10' })[0]?.path).toBe('duration');
  });

  it('takes "default", an http(s) URL or a library medium as sound_url, nothing else', () => {
    expect(issuesOf({ sound_url: 'ftp://example.com/a.mp3' })[0]).toEqual({
      path: 'sound_url',
      message: 'must be "default", an http(s) URL or a library medium "/media/<id>/content"',
    });
    expect(notificationCreateSchema.safeParse({ sound_url: 'http://nas.local/chime.mp3' }).success).toBe(
      true,
    );
    expect(issuesOf({ sound_url: 'beep' })[0]?.path).toBe('sound_url');
    expect(notificationCreateSchema.safeParse({ sound_url: '/media/med_1/content' }).success).toBe(true);
    expect(issuesOf({ sound_url: '/media/med_1/other' })[0]?.path).toBe('sound_url');
  });

  it('takes an icon name of the icon library, or an empty icon', () => {
    expect(notificationCreateSchema.parse({ sound_url: 'default', icon: '' }).icon).toBe('');
    expect(issuesOf({ sound_url: 'default', icon: '<script>' })[0]).toEqual({
      path: 'icon',
      message: 'must be an icon name such as "bug" or "fa-bug"',
    });
  });

  it("reads null as unset, as the original product's Ruby clients send nil", () => {
    const parsed = notificationCreateSchema.parse({
      title: 'Deploy',
      message: 'v2',
      icon: null,
      duration: null,
      sound_url: null,
    });
    expect(parsed).toMatchObject({ title: 'Deploy', message: 'v2', duration: 10 });
    expect(parsed.icon).toBeUndefined();
    expect(parsed.sound_url).toBeUndefined();
    expect(issuesOf({ title: null, message: 'v2' })[0]?.path).toBe('title');
  });

  it('names unknown fields', () => {
    expect(issuesOf({ title: 't', message: 'm', colour: 'red', shade: 1 })).toEqual([
      { path: 'colour', message: 'is not a known field' },
      { path: 'shade', message: 'is not a known field' },
    ]);
  });
});
