import { describe, expect, it } from 'vitest';
import { quotaLines } from './quota-lines';

const unlimited = { used: 3, limit: null };

describe('the quotas of the user menu', () => {
  it('says each quota that has a limit, and whether it is full', () => {
    expect(
      quotaLines({
        media_bytes: { used: 734_003, limit: 1024 * 1024 },
        media_files: unlimited,
        scripts: unlimited,
        devices: { used: 1, limit: 1 },
        users: unlimited,
      }),
    ).toEqual([
      { label: 'Media storage', text: '0.7 MB of 1 MB', full: false },
      { label: 'Screens', text: '1 of 1', full: true },
    ]);
  });

  it('says nothing for an account without quotas', () => {
    const quotas = {
      media_bytes: unlimited,
      media_files: unlimited,
      scripts: unlimited,
      devices: unlimited,
      users: unlimited,
    };
    expect(quotaLines(quotas)).toEqual([]);
  });
});
