import { describe, expect, it } from 'vitest';
import { claimUrl } from '../../../../src/agent/pairing';
import { pairLinkTarget } from './pair-link';

describe("a screen's pairing link", () => {
  it('leads to the Screens page with the code, under /console/', () => {
    const link = new URL(claimUrl('http://127.0.0.1:8787', '7K4QXM'));
    expect(pairLinkTarget(link.hash)).toBe('/console/screens?pair=7K4QXM');
  });

  it('keeps a code whatever its characters, encoded', () => {
    expect(pairLinkTarget('#/pair?code=7k4%20qxm')).toBe('/console/screens?pair=7k4+qxm');
  });

  it('is no other address', () => {
    for (const hash of ['', '#code=wbc_abc', '#/pair', '#/pair?code=', '#/screens?code=7K4QXM']) {
      expect(pairLinkTarget(hash)).toBeNull();
    }
  });
});
