import { describe, expect, it } from 'vitest';
import type { DataBinding } from '../../../../../src/shared/data-source';
import {
  bindingEdited,
  bindingProblem,
  bindingRequests,
  NO_BINDINGS,
  specOf,
  type BindingSpec,
} from './binding-edits';
import { mappingRows } from './mapping-rows';

const saved: DataBinding = {
  id: 'b1',
  source_id: 's1',
  flow_id: 'f1',
  flow_tag: 'hall',
  query: 'up',
  range: null,
  mapping: { value: '[0].value' },
  created_at: '2026-11-27T08:00:00.000Z',
  last_run_at: null,
  last_ok_at: null,
  last_error: null,
};

const edit = (from: DataBinding | null, to: BindingSpec | null) => ({ flowId: 'f1', tag: 'hall', from, to });
const spec = (change: Partial<BindingSpec> = {}): BindingSpec => ({ ...specOf(saved), ...change });

describe('a flow’s data source in the board’s draft', () => {
  it('keeps the binding it began with, and is no edit once typed back (blank fields aside)', () => {
    const once = bindingEdited(NO_BINDINGS, edit(saved, spec({ query: 'up == 1' })));
    expect(once.get('f1')?.from).toBe(saved);
    const back = bindingEdited(once, edit(null, spec({ mapping: { value: ' [0].value ', title: '' } })));
    expect(back.size).toBe(0);
  });

  it('creates a binding for a flow that had none, with the fields that have an expression', () => {
    const to = { source_id: 's2', query: 'SELECT 1', range: null, mapping: { value: 'x', title: ' ' } };
    expect(bindingRequests(edit(null, to))).toEqual([
      {
        method: 'POST',
        path: '/data-bindings',
        body: { source_id: 's2', flow: 'hall', query: 'SELECT 1', range: null, mapping: { value: 'x' } },
      },
    ]);
  });

  it('sends only what changed, deletes a binding removed, and moves one to another source by delete then create', () => {
    expect(bindingRequests(edit(saved, spec({ range: { seconds: 3600, step_seconds: 60 } })))).toEqual([
      { method: 'PATCH', path: '/data-bindings/b1', body: { range: { seconds: 3600, step_seconds: 60 } } },
    ]);
    expect(bindingRequests(edit(saved, null))).toEqual([{ method: 'DELETE', path: '/data-bindings/b1' }]);
    expect(bindingRequests(edit(saved, spec({ source_id: 's2' }))).map((sent) => sent.method)).toEqual([
      'DELETE',
      'POST',
    ]);
    expect(bindingRequests(edit(saved, spec()))).toEqual([]);
  });

  it('refuses a binding that maps no field', () => {
    expect(bindingProblem(edit(null, spec({ mapping: { value: '' } })))).toMatch(/at least one field/);
    expect(bindingProblem(edit(saved, null))).toBeNull();
  });
});

describe('the mapping’s rows', () => {
  it('are the variant’s fields with their labels, the common ones last, each with its expression', () => {
    const rows = mappingRows('value', { value: '[0].value' });
    expect(rows[0]).toMatchObject({ key: 'title', label: 'Title', more: false });
    expect(rows.find((row) => row.key === 'value')).toMatchObject({
      label: 'Value',
      required: true,
      expression: '[0].value',
    });
    const more = rows.filter((row) => row.more).map((row) => row.key);
    expect(more).toEqual(['expires_at', 'opacity', 'priority', 'icon', 'link']);
    expect(rows.findIndex((row) => row.more)).toBe(rows.length - more.length);
  });

  it('differ by variant, and list a field mapped that the variant lacks, to be cleared', () => {
    const rows = mappingRows('tickertape', { value: '[0].value' });
    expect(rows.map((row) => row.key)).toContain('messages');
    expect(rows.at(-1)).toMatchObject({ key: 'value', unknown: true, expression: '[0].value' });
    expect(mappingRows('value', {}).some((row) => row.unknown)).toBe(false);
  });
});
