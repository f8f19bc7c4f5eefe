import { describe, expect, it } from 'vitest';
import { cacheNameOf, isNameOf, mediaRequest } from './media-urls';

const service = { server: 'https://wallboard.example.com/base/', token: 'wb_secret' };

describe('media URLs', () => {
  it('resolves a library medium against the service, with its token', () => {
    expect(mediaRequest('/media/med_1/content', service)).toEqual({
      href: 'https://wallboard.example.com/base/media/med_1/content',
      headers: { authorization: 'Bearer wb_secret' },
    });
  });

  it('sends the token to the service’s origin only', () => {
    expect(mediaRequest('https://cdn.example.com/a.png', service).headers).toEqual({});
    expect(mediaRequest('http://wallboard.example.com/a.png', service).headers).toEqual({});
    expect(mediaRequest('https://wallboard.example.com.evil.test/a.png', service).headers).toEqual({});
    expect(mediaRequest('https://wallboard.example.com/other/a.png', service).headers).toEqual({
      authorization: 'Bearer wb_secret',
    });
  });

  it('cannot fetch a library medium without a service', () => {
    expect(() => mediaRequest('/media/med_1/content', null)).toThrow(/this screen has no service yet/);
  });

  it('names a library medium’s file by the type it was served as', () => {
    const name = cacheNameOf('/media/med_1/content', 'video/mp4');
    expect(name).toMatch(/^[0-9a-f]{32}\.mp4$/);
    expect(isNameOf(name, '/media/med_1/content')).toBe(true);
    expect(isNameOf(name, '/media/med_2/content')).toBe(false);
    expect(cacheNameOf('https://cdn.example.com/a.PNG?x=1')).toMatch(/^[0-9a-f]{32}\.png$/);
  });
});
