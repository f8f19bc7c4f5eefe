import { describe, expect, it } from 'vitest';
import { NO_SOURCES, sourceEdited, sourceRequests } from './source-edits';

const edit = (from: string | null, to: string | null) => ({ flowId: 'f1', tag: 'hall', from, to });

describe('a flow’s script in the board’s draft', () => {
  it('keeps the script it began with across choices, and is no edit once chosen back', () => {
    const once = sourceEdited(NO_SOURCES, edit('old', 'a'));
    // The panel says what the flow has now; the edit remembers what it began with.
    const twice = sourceEdited(once, edit('old', 'b'));
    expect(twice.get('f1')).toEqual(edit('old', 'b'));
    expect(sourceEdited(twice, edit('old', 'old')).size).toBe(0);
  });

  it('lets the old script go before the new one takes the flow', () => {
    expect(sourceRequests(edit('old', 'new'))).toEqual([
      { script: 'old', flow_id: null },
      { script: 'new', flow_id: 'f1' },
    ]);
    expect(sourceRequests(edit(null, 'new'))).toEqual([{ script: 'new', flow_id: 'f1' }]);
    expect(sourceRequests(edit('old', null))).toEqual([{ script: 'old', flow_id: null }]);
  });
});
