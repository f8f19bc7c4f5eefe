import { describe, expect, it, vi } from 'vitest';
import { renderHook } from 'vitest-browser-react';
import { queryClient, serve } from '../../testing/hook-kit';
import { useDeviceStatus } from './diagnostics-panel';
import { usePlaylists, useScreenshotTime } from './queries';

const SCREENSHOT = '/devices/hall%2F1/screenshot';

describe("a screen's queries", () => {
  it("reads the newest screenshot's time from a HEAD request, null without one, again after a notice", async () => {
    const service = serve().on('HEAD', SCREENSHOT, { status: 404 });
    const { queries, wrapper } = queryClient();
    const { result } = await renderHook(() => useScreenshotTime('hall/1'), { wrapper });
    await vi.waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toBeNull();

    service.on('HEAD', SCREENSHOT, {
      status: 200,
      headers: { 'x-screenshot-at': '2026-11-23T09:00:00.000Z' },
      body: 'picture',
    });
    // A `screenshots` notice makes the device's queries stale (api/realtime.ts).
    await queries.invalidateQueries({ queryKey: ['devices'] });
    await vi.waitFor(() => expect(result.current.data).toBe('2026-11-23T09:00:00.000Z'));
    expect(service.sent.map(({ method, path }) => `${method} ${path}`)).toEqual([
      `HEAD ${SCREENSHOT}`,
      `HEAD ${SCREENSHOT}`,
    ]);
  });

  it('says why a screenshot could not be read', async () => {
    serve().on('HEAD', SCREENSHOT, { status: 500 });
    const { wrapper } = queryClient();
    const { result } = await renderHook(() => useScreenshotTime('hall/1'), { wrapper });
    await vi.waitFor(() =>
      expect(result.current.error).toMatchObject({ message: 'the screenshot could not be read (500)' }),
    );
  });

  it('offers the playlists by name, in alphabetical order', async () => {
    const playlist = (id: string, name: string) => ({
      id,
      name,
      items: [],
      updated_at: '2026-11-23T09:00:00.000Z',
    });
    serve().on('GET', '/playlists', {
      status: 200,
      body: [playlist('p1', 'Lobby'), playlist('p2', 'canteen'), playlist('p3', 'Atrium')],
    });
    const { wrapper } = queryClient();
    const { result } = await renderHook(() => usePlaylists(), { wrapper });
    await vi.waitFor(() =>
      expect(result.current.data).toEqual([
        { value: 'p3', label: 'Atrium' },
        { value: 'p2', label: 'canteen' },
        { value: 'p1', label: 'Lobby' },
      ]),
    );
  });

  it('has no diagnostics (null, not an error) until the screen sends a heartbeat', async () => {
    serve().on('GET', '/devices/hall%2F1/status', {
      status: 404,
      body: { error: { code: 'not_found', message: 'no status yet', details: [] } },
    });
    const { wrapper } = queryClient();
    const { result } = await renderHook(() => useDeviceStatus('hall/1'), { wrapper });
    await vi.waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toBeNull();
  });

  it('says what the service answered when the diagnostics cannot be read', async () => {
    serve().on('GET', '/devices/hall%2F1/status', {
      status: 403,
      body: { error: { code: 'forbidden', message: 'this token may not read that device', details: [] } },
    });
    const { wrapper } = queryClient();
    const { result } = await renderHook(() => useDeviceStatus('hall/1'), { wrapper });
    await vi.waitFor(() =>
      expect(result.current.error).toMatchObject({
        status: 403,
        message: 'this token may not read that device',
      }),
    );
  });
});
