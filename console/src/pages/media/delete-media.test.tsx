import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { renderHook } from 'vitest-browser-react';
import type { MediaUsage } from '../../../../src/shared/media';
import { queryClient, serve } from '../../testing/hook-kit';
import { theme } from '../../theme';
import { useDeleteMedia } from './delete-media';
import { sampleMedium as medium } from '../../testing/fixtures';

const lobby: MediaUsage = { type: 'playlist', id: 'p1', name: 'Lobby' };

const PLAIN = 'DELETE /media/m1';
const DETACH = 'DELETE /media/m1?detach=true';
const deleted = { status: 204 };

/** The hook with what the console's page gives it: the query client, and Mantine's dialogs. */
async function deleting() {
  const { queries } = queryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MantineProvider theme={theme}>
      <QueryClientProvider client={queries}>
        <ModalsProvider>{children}</ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
  return { queries, ...(await renderHook(() => useDeleteMedia(), { wrapper })) };
}

const sent = (service: ReturnType<typeof serve>) =>
  service.sent.map(({ method, path }) => `${method} ${path}`);
const dialog = () => page.getByRole('dialog');

describe('deleting a medium', () => {
  it('asks plainly when nothing uses it, and deletes it only once confirmed', async () => {
    const service = serve().on('DELETE', '/media/m1', deleted);
    const { result, act } = await deleting();
    await act(() => result.current.mutate(medium([])));
    await expect.element(dialog()).toHaveTextContent('Nothing uses it');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await vi.waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(sent(service)).toEqual([]);

    await act(() => result.current.mutate(medium([])));
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await vi.waitFor(() => expect(sent(service)).toEqual([PLAIN]));
  });

  it('lists where it is used, takes it out of them when deleting, and makes the library stale', async () => {
    const service = serve().on('DELETE', '/media/m1?detach=true', deleted);
    const { result, act, queries } = await deleting();
    queries.setQueryData(['media'], { media: [medium([lobby])] });
    await act(() => result.current.mutate(medium([lobby])));
    await expect.element(dialog()).toHaveTextContent('Playlist “Lobby”');
    await page.getByRole('button', { name: 'Remove it from them and delete' }).click();
    await vi.waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(sent(service)).toEqual([DETACH]);
    expect(queries.getQueryState(['media'])?.isInvalidated).toBe(true);
  });

  it('asks again with the fresh list when it came into use meanwhile (409)', async () => {
    const service = serve()
      .on('DELETE', '/media/m1', {
        status: 409,
        body: { error: { code: 'conflict', message: 'the medium is in use', details: [] } },
      })
      .on('GET', '/media/m1', { status: 200, body: medium([lobby]) })
      .on('DELETE', '/media/m1?detach=true', deleted);
    const { result, act } = await deleting();
    await act(() => result.current.mutate(medium([])));
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.element(dialog()).toHaveTextContent('Playlist “Lobby”');
    await page.getByRole('button', { name: 'Remove it from them and delete' }).click();
    await vi.waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(sent(service)).toEqual([PLAIN, 'GET /media/m1', DETACH]);
  });

  it('fails with what the service said on any other refusal', async () => {
    const service = serve().on('DELETE', '/media/m1', {
      status: 403,
      body: { error: { code: 'forbidden', message: 'a viewer changes nothing', details: [] } },
    });
    const { result, act } = await deleting();
    await act(() => result.current.mutate(medium([])));
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await vi.waitFor(() =>
      expect(result.current.error).toMatchObject({ message: 'a viewer changes nothing' }),
    );
    expect(sent(service)).toEqual([PLAIN]);
  });
});
