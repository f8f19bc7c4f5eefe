import { describe, expect, it, vi } from 'vitest';
import { renderHook } from 'vitest-browser-react';
import type { Group } from '../../../../src/shared/group';
import { queryClient, serve } from '../../testing/hook-kit';
import { MembersError, useSaveGroup } from './save-group';

const group: Group = {
  id: 'g1',
  name: 'Lobby',
  playlist_id: null,
  schedule: null,
  power: null,
  rotation: null,
  time_zone: null,
  created_at: '2026-11-27T09:00:00.000Z',
  updated_at: '2026-11-27T09:00:00.000Z',
};

const refused = (message: string) => ({
  status: 400,
  body: { error: { code: 'invalid', message, details: [] } },
});

async function saving() {
  const { wrapper } = queryClient();
  return renderHook(() => useSaveGroup(group, (tag) => `Screen ${tag}`), { wrapper });
}

const writes = (service: ReturnType<typeof serve>) =>
  service.sent
    .filter((sent) => sent.method !== 'GET')
    .map(({ method, path, body }) => ({ method, path, body }));

describe("the group page's one Save", () => {
  it('writes the group, then moves each screen in or out, in that order', async () => {
    const service = serve()
      .on('PATCH', '/groups/g1', ({ body }) => ({ status: 200, body: { ...group, ...(body as object) } }))
      .on('PATCH', '/devices/a', { status: 200, body: {} })
      .on('PATCH', '/devices/b', { status: 200, body: {} });
    const { result, act } = await saving();
    await act(() => result.current.mutate({ fields: { name: 'Hall' }, added: ['a'], removed: ['b'] }));
    await vi.waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(writes(service)).toEqual([
      { method: 'PATCH', path: '/groups/g1', body: { name: 'Hall' } },
      { method: 'PATCH', path: '/devices/a', body: { group_id: 'g1' } },
      { method: 'PATCH', path: '/devices/b', body: { group_id: null } },
    ]);
  });

  it('moves no screen when the group is refused', async () => {
    const service = serve().on('PATCH', '/groups/g1', refused('name must not be empty'));
    const { result, act } = await saving();
    await act(() => result.current.mutate({ fields: { name: '' }, added: ['a'], removed: [] }));
    await vi.waitFor(() => expect(result.current.isError).toBe(true));
    expect(writes(service).map((sent) => sent.path)).toEqual(['/groups/g1']);
  });

  it('names the screens that could not be moved, after saving the rest', async () => {
    const service = serve()
      .on('PATCH', '/devices/a', refused('no such screen'))
      .on('PATCH', '/devices/b', { status: 200, body: {} });
    const { result, act } = await saving();
    await act(() => result.current.mutate({ fields: {}, added: ['a', 'b'], removed: [] }));
    await vi.waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error).toBeInstanceOf(MembersError);
    expect(result.current.error?.message).toBe('1 screen(s) could not be moved: Screen a (no such screen)');
    expect(writes(service).map((sent) => sent.path)).toEqual(['/devices/a', '/devices/b']);
  });
});
