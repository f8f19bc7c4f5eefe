import { describe, expect, it } from 'vitest';
import type { Media } from '../../../../src/shared/media';
import { filterMedia, libraryTags, retagged } from './media-tags';

const medium = (name: string, tags: string[]): Media => ({
  id: name,
  name,
  content_type: 'image/png',
  kind: 'image',
  bytes: 1,
  sha256: 'a'.repeat(64),
  url: `/media/${name}/content`,
  created_at: '2026-11-23T08:00:00.000Z',
  tags,
  expires_at: null,
  used_by: [],
});

describe('media tags', () => {
  const library = [
    medium('poster 2.png', ['Lobby', 'winter']),
    medium('menu.png', ['lobby']),
    medium('x.png', []),
  ];

  it('lists every tag once, counted, as people read them', () => {
    expect(libraryTags(library)).toEqual([
      { tag: 'Lobby', count: 2 },
      { tag: 'winter', count: 1 },
    ]);
  });

  it('filters by a tag whatever its case, and by the words of a search', () => {
    expect(filterMedia(library, 'LOBBY', '').map((m) => m.name)).toEqual(['poster 2.png', 'menu.png']);
    expect(filterMedia(library, null, 'Poster').map((m) => m.name)).toEqual(['poster 2.png']);
    expect(filterMedia(library, 'winter', 'menu')).toEqual([]);
  });

  it('adds and removes tags in bulk without repeating one', () => {
    expect(retagged(['Lobby', 'winter'], ['lobby', ' summer '], ['WINTER'])).toEqual(['Lobby', 'summer']);
    expect(retagged([], ['a'], [])).toEqual(['a']);
  });
});
