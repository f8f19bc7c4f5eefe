import { describe, expect, it } from 'vitest';
import { renderHook } from 'vitest-browser-react';
import type { Playlist } from '../../../../src/shared/playlist';
import { newWebItem, usePlaylistDraft } from './draft';

const version = (updated_at: string, urls: string[]): Playlist => ({
  id: 'lobby',
  name: 'Lobby',
  updated_at,
  items: urls.map((url) => ({ type: 'web', url, duration: 20, reload_seconds: null })),
});

const first = version('2026-11-23T09:00:00.000Z', ['https://a.example']);
const second = version('2026-11-23T09:05:00.000Z', ['https://a.example', 'https://b.example']);
const third = version('2026-11-23T09:10:00.000Z', ['https://c.example']);

const urlsOf = (items: readonly { type: string; url?: string }[]) => items.map((item) => item.url);
const page = { url: 'https://mine.example', duration: 30, reload_seconds: null };

async function drafting(playlist: Playlist | undefined) {
  return renderHook((current: Playlist | undefined = playlist) => usePlaylistDraft(current), {
    initialProps: playlist,
  });
}

describe('a playlist being edited', () => {
  it("follows the service's versions until the first change, keeping each row's key within a version", async () => {
    const { result, rerender } = await drafting(first);
    expect(urlsOf(result.current.items)).toEqual(['https://a.example']);
    expect(result.current.dirty).toBe(false);
    const items = result.current.items;
    await rerender(first);
    expect(result.current.items).toBe(items);
    // The same version read again (a refetch after a notice) keeps the rows' keys.
    await rerender({ ...first });
    expect(result.current.items.map((item) => item.key)).toEqual(items.map((item) => item.key));

    await rerender(second);
    expect(urlsOf(result.current.items)).toEqual(['https://a.example', 'https://b.example']);
    expect(result.current.changedElsewhere).toBe(false);
  });

  it('keeps the edits over a newer version and says so; "keep mine" acknowledges it, "drop" shows it', async () => {
    const { result, rerender, act } = await drafting(first);
    await act(() => result.current.change((items) => [...items, newWebItem(result.current.newKey(), page)]));
    expect(result.current.dirty).toBe(true);
    expect(result.current.changedElsewhere).toBe(false);

    await rerender(second);
    expect(urlsOf(result.current.items)).toEqual(['https://a.example', 'https://mine.example']);
    expect(result.current.changedElsewhere).toBe(true);
    // Editing on does not acknowledge the newer version.
    await act(() => result.current.change((drafts) => drafts.slice(1)));
    expect(result.current.changedElsewhere).toBe(true);
    expect(urlsOf(result.current.items)).toEqual(['https://mine.example']);

    await act(() => result.current.keepMine());
    expect(result.current.changedElsewhere).toBe(false);
    expect(urlsOf(result.current.items)).toEqual(['https://mine.example']);
    // A version newer still is told again.
    await rerender(third);
    expect(result.current.changedElsewhere).toBe(true);

    await act(() => result.current.drop());
    expect(result.current.dirty).toBe(false);
    expect(urlsOf(result.current.items)).toEqual(['https://c.example']);
  });

  it("clears the service's refusal at the next change, and changes nothing before the playlist has loaded", async () => {
    const { result, rerender, act } = await drafting(undefined);
    await act(() => result.current.change((items) => [...items, newWebItem('k', page)]));
    expect(result.current.dirty).toBe(false);
    expect(result.current.items).toEqual([]);

    await rerender(first);
    await act(() => result.current.setErrors({ 'items.0.duration': 'must be at least 1' }));
    await act(() => result.current.change((items) => items.slice(1)));
    expect(result.current.errors).toEqual({});
    expect(result.current.items).toEqual([]);
    expect(result.current.dirty).toBe(true);
  });

  it('gives every new item a key of its own, never one of a loaded row', async () => {
    const { result } = await drafting(first);
    const made = [result.current.newKey(), result.current.newKey()];
    expect(new Set(made).size).toBe(2);
    expect(made.some((key) => result.current.items.some((item) => item.key === key))).toBe(false);
  });
});
