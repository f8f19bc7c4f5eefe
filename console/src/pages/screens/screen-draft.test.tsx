import { describe, expect, it, vi } from 'vitest';
import { renderHook } from 'vitest-browser-react';
import type { Device } from '../../../../src/shared/device';
import { queryClient, serve } from '../../testing/hook-kit';
import { useScreenDraft } from './screen-draft';

const saved: Device = {
  id: 'd1',
  tag: 'hall',
  name: 'Hall',
  description: '',
  playlist_id: null,
  group_id: 'g1',
  schedule: null,
  power: null,
  rotation: null,
  time_zone: null,
  online: true,
  last_seen_date: null,
  last_seen_ip: null,
};

async function drafting(device: Device = saved) {
  const { queries, wrapper } = queryClient();
  const hook = await renderHook((current: Device = device) => useScreenDraft(current), {
    initialProps: device,
    wrapper,
  });
  return { queries, ...hook };
}

const writes = (service: ReturnType<typeof serve>) => service.sent.filter((sent) => sent.method !== 'GET');

describe("a screen's page draft", () => {
  it('holds the group, the settings and the name until Save, then writes them in one request', async () => {
    const service = serve().on('PATCH', '/devices/hall', ({ body }) => ({
      status: 200,
      body: { ...saved, ...(body as object) },
    }));
    const { result, act } = await drafting();
    await act(() => {
      result.current.set('group_id', null);
      result.current.patch({ rotation: 90 });
      result.current.set('name', 'Front hall');
    });
    expect(result.current.dirty).toBe(true);
    expect(result.current.values).toMatchObject({ group_id: null, rotation: 90, name: 'Front hall' });
    expect(writes(service)).toEqual([]);

    await act(() => result.current.save());
    await vi.waitFor(() => expect(result.current.dirty).toBe(false));
    expect(writes(service)).toEqual([
      {
        method: 'PATCH',
        path: '/devices/hall',
        body: { group_id: null, rotation: 90, name: 'Front hall' },
      },
    ]);
  });

  it("takes in someone else's save where it has not edited, and is clean when edited back", async () => {
    serve();
    const { result, act, rerender } = await drafting();
    await act(() => result.current.set('name', 'Mine'));
    await rerender({ ...saved, name: 'Theirs', rotation: 180 });
    expect(result.current.values).toMatchObject({ name: 'Mine', rotation: 180 });
    await act(() => result.current.set('name', 'Theirs'));
    expect(result.current.dirty).toBe(false);
  });

  it('sends nothing while a field is one the service would refuse', async () => {
    const service = serve();
    const { result, act } = await drafting();
    await act(() => result.current.set('name', 'x'.repeat(300)));
    expect(result.current.invalid).toBe(true);
    expect(result.current.errors.name).toMatch(/at most 255/);
    await act(() => result.current.save());
    expect(writes(service)).toEqual([]);
  });
});
