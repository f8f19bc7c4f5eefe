import { describe, expect, it } from 'vitest';
import { assignmentChanges, emptiedScreens } from './assignment-draft';

describe("a playlist's screens in its draft", () => {
  it('saves as the screens added and the screens taken off', () => {
    expect(assignmentChanges(['a', 'b'], ['b', 'c'])).toEqual({ added: ['c'], removed: ['a'] });
    expect(assignmentChanges(['a'], ['a'])).toEqual({ added: [], removed: [] });
  });

  it('warns before a playlist with no items goes onto screens', () => {
    // Screens picked on a still-empty playlist: the ones added would wait for a playlist.
    expect(emptiedScreens(0, false, ['a'], ['a', 'b'])).toEqual(['b']);
    // Its items emptied: every screen it stays on.
    expect(emptiedScreens(0, true, ['a'], ['a'])).toEqual(['a']);
    expect(emptiedScreens(2, true, [], ['a'])).toEqual([]);
    expect(emptiedScreens(0, false, ['a'], [])).toEqual([]);
  });
});
