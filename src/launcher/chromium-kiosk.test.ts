import { expect, it } from 'vitest';
import { chromiumAvailable, chromiumKioskArgs } from './chromium-kiosk';

const CHROMIUM_PATH = '/usr/bin/chromium';

it('opens the player in kiosk mode with a throw-away profile and no network chatter', () => {
  const args = chromiumKioskArgs('http://127.0.0.1:8080/', '/tmp/profile', false);
  expect(args).toContain('--kiosk');
  expect(args).toContain('--app=http://127.0.0.1:8080/');
  expect(args).toContain('--user-data-dir=/tmp/profile');
  expect(args).toContain('--disable-background-networking');
  expect(args).toContain('--disable-component-update');
  expect(args).toContain('--autoplay-policy=no-user-gesture-required');
  expect(args).not.toContain('--no-sandbox');
  expect(args).not.toContain('--disable-gpu');
  expect(chromiumKioskArgs('http://x/', '/tmp/p', true)).toContain('--no-sandbox');
});

it('needs Chromium and a display', () => {
  const installed = (path: string) => path === CHROMIUM_PATH;
  expect(chromiumAvailable({ DISPLAY: ':0' }, installed)).toEqual({ ok: true, path: CHROMIUM_PATH });
  expect(chromiumAvailable({ WAYLAND_DISPLAY: 'wayland-0' }, installed).ok).toBe(true);
  expect(chromiumAvailable({ CHROMIUM_PATH: '/opt/c' }, (path) => path === '/opt/c')).toEqual({
    ok: false,
    reason: expect.stringMatching(/no display/),
  });
  expect(chromiumAvailable({}, installed)).toEqual({
    ok: false,
    reason: expect.stringMatching(/no display/),
  });
  expect(chromiumAvailable({ DISPLAY: ':0' }, () => false)).toEqual({
    ok: false,
    reason: `no Chromium at ${CHROMIUM_PATH}`,
  });
});
