import { describe, expect, it } from 'vitest';
import { formatBytes } from './format';

describe('a size as people read it', () => {
  it('counts bytes below a kilobyte as they are', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(740)).toBe('740 B');
    expect(formatBytes(1023)).toBe('1023 B');
  });

  it('counts in units of 1,024 bytes, as the media limit does', () => {
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(3.2 * 1024 * 1024)).toBe('3.2 MB');
    expect(formatBytes(50 * 1024 * 1024)).toBe('50 MB');
  });

  it('keeps one decimal below 100, none from 100 on', () => {
    expect(formatBytes(99.44 * 1024)).toBe('99.4 KB');
    expect(formatBytes(123.4 * 1024 * 1024)).toBe('123 MB');
  });

  it('stops at gigabytes', () => {
    expect(formatBytes(2 * 1024 ** 3)).toBe('2 GB');
    expect(formatBytes(2048 * 1024 ** 3)).toBe('2048 GB');
  });
});
