import { useQuery } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { renderHook } from 'vitest-browser-react';
import { z } from 'zod';
import { api } from '../api/client';
import { queryClient, serve } from '../testing/hook-kit';
import type { ReactNode } from 'react';
import type { UserRole } from '../../../src/shared/user';
import {
  SessionProvider,
  useSessionQuery,
  useSignedOutHandler,
  useWriteRefusal,
  VIEWER_MESSAGE,
  WriteAreaProvider,
  type WriteArea,
} from './session';

const ada = { id: 'u1', login: 'ada@example.com', role: 'admin', groups: [], sso: false };
const gone = { status: 401, body: { error: { code: 'unauthorized', message: 'sign in', details: [] } } };

describe('the session', () => {
  it('is the signed-in user, or null (not an error) while signed out', async () => {
    const service = serve().on('GET', '/session', { status: 200, body: ada });
    const { queries, wrapper } = queryClient();
    const { result } = await renderHook(() => useSessionQuery(), { wrapper });
    await vi.waitFor(() => expect(result.current.data).toEqual(ada));

    service.on('GET', '/session', gone);
    await queries.resetQueries();
    await vi.waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toBeNull();
    expect(result.current.error).toBeNull();
  });

  it('fails with what the service said when it cannot say who is signed in', async () => {
    serve().on('GET', '/session', {
      status: 503,
      body: { error: { code: 'unavailable', message: 'the store is starting', details: [] } },
    });
    const { wrapper } = queryClient();
    const { result } = await renderHook(() => useSessionQuery(), { wrapper });
    await vi.waitFor(() => expect(result.current.error).toMatchObject({ message: 'the store is starting' }));
    expect(result.current.data).toBeUndefined();
  });

  it('shows the sign-in page and forgets every other answer when any request finds the session gone', async () => {
    const service = serve()
      .on('GET', '/session', { status: 200, body: ada })
      .on('GET', '/things', { status: 200, body: ['secret'] });
    const { queries, wrapper } = queryClient();
    const { result } = await renderHook(
      () => {
        useSignedOutHandler();
        return {
          session: useSessionQuery(),
          things: useQuery({ queryKey: ['things'], queryFn: () => api(z.array(z.string()), '/things') }),
        };
      },
      { wrapper },
    );
    await vi.waitFor(() => expect(result.current.things.data).toEqual(['secret']));

    service.on('GET', '/things', gone);
    await queries.invalidateQueries({ queryKey: ['things'] });
    await vi.waitFor(() => expect(result.current.session.data).toBeNull());
    expect(queries.getQueryData(['things'])).toBeUndefined();
    expect(
      queries
        .getQueryCache()
        .findAll()
        .map((query) => query.queryKey),
    ).toEqual([['session']]);
    // Set, not refetched: the sign-in page shows without asking the service again.
    expect(service.count('GET', '/session')).toBe(1);
  });
});

describe('what a role may change', () => {
  async function refusal(role: UserRole, area: WriteArea): Promise<string | null> {
    const wrapper = ({ children }: { children: ReactNode }) => (
      <SessionProvider user={{ ...ada, role }}>
        <WriteAreaProvider area={area}>{children}</WriteAreaProvider>
      </SessionProvider>
    );
    const { result } = await renderHook(() => useWriteRefusal(), { wrapper });
    return result.current;
  }

  it('lets each role change its own part, and says in words why not elsewhere', async () => {
    for (const area of ['content', 'publishing', 'admin'] as const) {
      expect(await refusal('admin', area)).toBeNull();
      expect(await refusal('viewer', area)).toBe(VIEWER_MESSAGE);
    }
    expect(await refusal('editor', 'content')).toBeNull();
    expect(await refusal('editor', 'publishing')).toMatch(/^Editors change boards, media and data/);
    expect(await refusal('publisher', 'publishing')).toBeNull();
    expect(await refusal('publisher', 'content')).toMatch(/^Publishers decide what plays/);
    expect(await refusal('publisher', 'admin')).toBe('Only an admin may change this.');
  });
});
