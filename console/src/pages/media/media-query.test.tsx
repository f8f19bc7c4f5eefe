import { useQuery } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { renderHook } from 'vitest-browser-react';
import { queryClient, serve, type Answer } from '../../testing/hook-kit';
import { mediaQuery } from './media-query';
import { sampleMedium } from '../../testing/fixtures';

const logo = sampleMedium();

async function library(answer: Answer) {
  serve().on('GET', '/media', answer);
  const { wrapper } = queryClient();
  const { result } = await renderHook(() => useQuery(mediaQuery), { wrapper });
  await vi.waitFor(() => expect(result.current.isPending).toBe(false));
  return result.current;
}

const MAX = 'x-wallboard-media-max-bytes';

describe('the media library', () => {
  it('lists the media with the largest file the service takes', async () => {
    const { data } = await library({ status: 200, body: [logo], headers: { [MAX]: '52428800' } });
    expect(data).toEqual({ media: [logo], maxBytes: 52_428_800 });
  });

  it('leaves the largest file unsaid when the service does not say it plainly', async () => {
    const headers: Record<string, string>[] = [{}, { [MAX]: 'lots' }, { [MAX]: '0' }, { [MAX]: '1.5' }];
    for (const header of headers) {
      const { data } = await library({ status: 200, body: [], headers: header });
      expect(data?.maxBytes).toBeNull();
    }
  });

  it('says which part of an answer does not follow the contract', async () => {
    const { error } = await library({ status: 200, body: [{ ...logo, kind: 'pdf' }] });
    expect(error?.message).toMatch(/^unexpected answer from \/media: 0\.kind/);
  });
});
