import { describe, expect, it } from 'vitest';
import { playlistUpdateSchema } from '../../../../src/shared/playlist';
import { newBoardItem, newMediaItem, newWebItem, toBody, validateItems, type ItemDraft } from './draft';

const IMAGE = '/media/m1/content';
const VIDEO = '/media/m2/content';

describe('new playlist items', () => {
  it('shows a board for 15 seconds on its first channel', () => {
    expect(newBoardItem('k1', 'board')).toEqual({
      key: 'k1',
      type: 'board',
      board_id: 'board',
      channel_id: null,
      duration: 15,
    });
  });

  it('shows an image whole for 10 seconds, and plays a video muted to its end', () => {
    expect(newMediaItem('k2', 'image', IMAGE)).toEqual({
      key: 'k2',
      type: 'image',
      url: IMAGE,
      fit: 'fit',
      duration: 10,
    });
    expect(newMediaItem('k3', 'video', VIDEO)).toEqual({
      key: 'k3',
      type: 'video',
      url: VIDEO,
      muted: true,
      duration: null,
    });
  });

  it('keeps a web page as the operator gave it', () => {
    expect(newWebItem('k4', { url: 'http://intranet/kpi', duration: 30, reload_seconds: 60 })).toEqual({
      key: 'k4',
      type: 'web',
      url: 'http://intranet/kpi',
      duration: 30,
      reload_seconds: 60,
    });
  });

  it('are all items the service accepts', () => {
    const items = [
      newBoardItem('a', 'board'),
      newMediaItem('b', 'image', IMAGE),
      newMediaItem('c', 'video', VIDEO),
      newWebItem('d', { url: 'https://example.com/', duration: 20, reload_seconds: null }),
    ];
    expect(playlistUpdateSchema.safeParse(toBody(items)).success).toBe(true);
    expect(validateItems(items)).toEqual({});
  });
});

describe("the playlist's save", () => {
  it('sends the items in their order without the keys that name their rows', () => {
    const body = toBody([newMediaItem('b', 'image', IMAGE), newBoardItem('a', 'board')]);
    expect(body.items).toEqual([
      { type: 'image', url: IMAGE, fit: 'fit', duration: 10 },
      { type: 'board', board_id: 'board', channel_id: null, duration: 15 },
    ]);
  });

  it("keeps a video's play to its end as null", () => {
    expect(toBody([newMediaItem('c', 'video', VIDEO)]).items[0]).toMatchObject({ duration: null });
  });

  it('refuses an emptied duration on the field of that item, not as a missing one', () => {
    const emptied: ItemDraft = { ...newBoardItem('a', 'board'), duration: '' };
    const body = toBody([newBoardItem('z', 'board'), emptied]);
    expect(body.items[1]).toMatchObject({ duration: Number.NaN });
    expect(Object.keys(validateItems([newBoardItem('z', 'board'), emptied]))).toEqual(['items.1.duration']);
  });

  it('says what is wrong with a duration by the rules the service applies', () => {
    const errors = validateItems([{ ...newMediaItem('b', 'image', IMAGE), duration: 0 }]);
    expect(errors['items.0.duration']).toBe('must be at least 1 second');
    const long = validateItems([{ ...newBoardItem('a', 'board'), duration: 86401 }]);
    expect(long['items.0.duration']).toBe('must be at most 86400 seconds');
  });
});
