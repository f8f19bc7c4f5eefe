import { describe, expect, it } from 'vitest';
import { backoffDelay, jittered } from './backoff';
import { ConfigError, credentialOf, defaultTag, resolveConfig } from './config';
import { settingsFromEnv } from './flags';

const defaults = { tag: 'screen-abc', name: 'host', cacheDir: '/tmp/cache' };

describe('configuration', () => {
  it('takes flags over the environment over stored settings over defaults', () => {
    const config = resolveConfig(
      {
        flags: { server: 'http://flag:1', heartbeatSeconds: undefined },
        env: settingsFromEnv({
          WALLBOARD_SERVER: 'http://env:1',
          WALLBOARD_TOKEN: 'env-token',
          WALLBOARD_HEARTBEAT: '60',
        }),
        stored: { token: 'stored-token', tag: 'stored-tag', name: 'Stored' },
      },
      defaults,
    );
    expect(config).toEqual({
      server: 'http://flag:1',
      token: 'env-token',
      tag: 'stored-tag',
      name: 'Stored',
      heartbeatSeconds: 60,
      cacheDir: '/tmp/cache',
      cacheLimitBytes: 2 * 1024 ** 3,
    });
  });

  it('says which layer holds a bad value', () => {
    expect(() => resolveConfig({ flags: { server: 'ftp://x' }, env: {}, stored: {} }, defaults)).toThrow(
      /command-line flags: server must be an http or https URL/,
    );
    expect(() => resolveConfig({ flags: {}, env: { heartbeatSeconds: '1' }, stored: {} }, defaults)).toThrow(
      /environment: heartbeatSeconds must be at least 5 seconds/,
    );
    expect(() => resolveConfig({ flags: {}, env: {}, stored: { token: '' } }, defaults)).not.toThrow();
    expect(() => resolveConfig({ flags: {}, env: {}, stored: { tag: '-x' } }, defaults)).toThrow(ConfigError);
  });

  it('leaves the service and the token out when none is given: the client finds one and pairs', () => {
    const bare = resolveConfig({ flags: {}, env: {}, stored: undefined }, defaults);
    expect(bare).toMatchObject({ server: null, token: null, tag: 'screen-abc' });
    expect(credentialOf(bare)).toBeNull();
    const serverOnly = resolveConfig({ flags: { server: 'http://x:1/' }, env: {}, stored: {} }, defaults);
    expect(serverOnly).toMatchObject({ server: 'http://x:1', token: null });
    expect(credentialOf(serverOnly)).toBeNull();
  });

  it('does not show a stored token to another service than the one it was stored with', () => {
    const stored = { server: 'http://paired:1/', token: 'paired-token', tag: 'kitchen' };
    const same = resolveConfig({ flags: { server: 'http://paired:1' }, env: {}, stored }, defaults);
    expect(credentialOf(same)).toEqual({ server: 'http://paired:1', token: 'paired-token', tag: 'kitchen' });
    const other = resolveConfig({ flags: { server: 'http://other:1' }, env: {}, stored }, defaults);
    expect(other).toMatchObject({ server: 'http://other:1', token: null });
    // A token given with the other service is that service's.
    const given = resolveConfig(
      { flags: { server: 'http://other:1' }, env: { token: 'other-token' }, stored },
      defaults,
    );
    expect(given.token).toBe('other-token');
  });

  it('derives a stable tag from the machine id', () => {
    expect(defaultTag('3D1219C7-C4C5-404A')).toBe('screen-3d1219c7c4c5');
    expect(defaultTag('')).toBe('screen-unknown');
  });
});

describe('backoff', () => {
  it('doubles from one second up to a minute, jittered over the upper half', () => {
    expect([0, 1, 2, 3].map((n) => backoffDelay(n, () => 1))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffDelay(0, () => 0)).toBe(500);
    expect(backoffDelay(20, () => 1)).toBe(60_000);
    expect(backoffDelay(1000, () => 0.5)).toBe(45_000);
  });

  it('spreads heartbeats by ±10%', () => {
    expect(jittered(30_000, () => 0)).toBe(27_000);
    expect(jittered(30_000, () => 1)).toBe(33_000);
  });
});
