import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../../src/shared/audit';
import { auditSearch, exportHref, fieldRows, shown, subjectOf } from './entries';

const entry = (change: Partial<AuditEntry>): AuditEntry => ({
  id: 7,
  at: '2026-11-27T10:00:00.000Z',
  actor: { kind: 'user', id: 'us_1', name: 'ada', address: '192.0.2.1' },
  resource: 'boards',
  resource_id: 'bd_1',
  action: 'update',
  before: null,
  after: null,
  ...change,
});

describe("the audit page's reading of entries", () => {
  it('lists the fields that changed first, in words', () => {
    const rows = fieldRows(
      entry({
        before: { name: 'Lobby', settings: { theme: 'dark' }, password_hash: '***' },
        after: { name: 'Front lobby', settings: { theme: 'dark' }, password_hash: '*** (changed)' },
      }),
    );
    expect(rows.map((row) => [row.field, row.before, row.after, row.changed])).toEqual([
      ['Name', 'Lobby', 'Front lobby', true],
      ['Password hash', '(secret, hidden)', '(secret, changed)', true],
      ['Settings › Theme', 'dark', 'dark', false],
    ]);
  });

  it('names each nested setting and list item by its path, in whatever order the store kept them', () => {
    const rows = fieldRows(
      entry({
        before: { settings: { size: [1920, 1080], font_size: 'normal' }, items: [{ duration: 10 }] },
        after: {
          settings: { font_size: 'large', size: [1920, 1080] },
          items: [{ duration: 10 }, { duration: 5 }],
        },
      }),
    );
    expect(rows.map((row) => [row.field, row.before, row.after, row.changed])).toEqual([
      ['Settings › Font size', 'normal', 'large', true],
      ['Items › 2 › Duration', '(none)', '5', true],
      ['Settings › Size', '1920, 1080', '1920, 1080', false],
      ['Items › 1 › Duration', '10', '10', false],
    ]);
  });

  it('shows a creation with its after alone, and names its subject', () => {
    const created = entry({ action: 'create', after: { name: 'Lobby', enabled: true, groups: [] } });
    expect(fieldRows(created).map((row) => [row.field, row.before, row.after])).toEqual([
      ['Name', '', 'Lobby'],
      ['Enabled', '', 'Yes'],
      ['Groups', '', '(none)'],
    ]);
    expect(subjectOf(created)).toBe('Board “Lobby”');
    expect(subjectOf(entry({ resource: 'session', resource_id: null }))).toBe('Session');
    expect(shown(['a', 'b'])).toBe('a, b');
  });

  it('asks for the days chosen as instants of the browser, the last day whole', () => {
    const search = new URLSearchParams(
      auditSearch({ resource: 'users', who: ' ada ', first: '2026-11-01', last: '2026-11-02' }),
    );
    expect(search.get('resource')).toBe('users');
    expect(search.get('actor')).toBe('ada');
    const since = new Date(search.get('since') ?? '');
    const until = new Date(search.get('until') ?? '');
    expect(until.getTime() - since.getTime()).toBeGreaterThanOrEqual(47 * 3_600_000);
    expect(exportHref({ resource: null, who: '', first: '', last: '' }, 'csv')).toBe(
      '/audit?format=csv&limit=10000',
    );
  });
});
