import { describe, expect, it } from 'vitest';
import type { DomainError } from './errors';
import { checkRelease, parseFeed } from './release-manifests';

const SHA = `${'Q'.repeat(86)}==`;
const OTHER = `${'R'.repeat(86)}==`;

describe("electron-builder's feeds", () => {
  it('read the version and files, quoted or not, CRLF or not, passing over the rest', () => {
    const feed = [
      'version: "1.2.3"',
      'files:',
      "  - url: 'Wallboard Setup 1.2.3.exe'",
      `    sha512: ${SHA}`,
      '    size: 1234',
      '    isAdminRightsRequired: false',
      '  - url: Wallboard-1.2.3.zip',
      `    sha512: ${OTHER}`,
      '    size: 99',
      'releaseNotes: >-',
      '  Faster start.',
      "releaseDate: '2026-11-27T10:00:00.000Z'",
    ].join('\r\n');
    expect(parseFeed('latest.yml', feed)).toEqual({
      version: '1.2.3',
      files: [
        { name: 'Wallboard Setup 1.2.3.exe', sha512: SHA, size: 1234 },
        { name: 'Wallboard-1.2.3.zip', sha512: OTHER, size: 99 },
      ],
    });
  });

  it('refuse the older top-level path and sha512 alone: they give no size', () => {
    const feed = `version: 0.9.0\npath: Wallboard.AppImage\nsha512: ${SHA}\n`;
    expect(() => parseFeed('latest-linux.yml', feed)).toThrow(/needs files: a list of url, sha512 and size/);
  });

  it('refuse what they cannot read, naming the file', () => {
    const refusal = (text: string) => {
      try {
        parseFeed('latest.yml', text);
      } catch (error) {
        return error as DomainError;
      }
      throw new Error('not refused');
    };
    expect(refusal('version: 1.0.0\nfiles: [{url: a}]').message).toMatch(/^latest\.yml .*files\.0\.sha512/);
    expect(refusal('version: 1.0.0\nfiles: [').message).toMatch(
      /^latest\.yml is not an electron-builder feed/,
    );
    expect(refusal('version: one\nfiles:\n  - url: a\n').message).toContain('must be a semantic version');
    expect(
      refusal(`version: 1.0.0\nfiles:\n  - url: ../a\n    sha512: ${SHA}\n    size: 1\n`).details,
    ).toEqual([expect.objectContaining({ path: 'files.latest.yml.files.0.url' })]);
  });

  it('of two platforms must name one version', () => {
    const feed = (version: string) =>
      `version: ${version}\nfiles:\n  - url: a-${version}\n    sha512: ${SHA}\n    size: 1\n`;
    const received = [
      { name: 'a-1.0.0', size: 1, sha512: SHA },
      { name: 'a-1.0.1', size: 1, sha512: SHA },
    ];
    const manifests = new Map([
      ['latest.yml', feed('1.0.0')],
      ['latest-linux.yml', feed('1.0.1')],
    ]);
    expect(() => checkRelease('shell', received, manifests)).toThrow(/different versions/);
  });

  it('refuse a file named by no manifest, but keep feeds and blockmaps', () => {
    const manifests = new Map([
      ['latest.yml', `version: 1.0.0\nfiles:\n  - url: a\n    sha512: ${SHA}\n    size: 1\n`],
    ]);
    const base = [
      { name: 'a', size: 1, sha512: SHA },
      { name: 'latest.yml', size: 60, sha512: OTHER },
      { name: 'a.blockmap', size: 3, sha512: OTHER },
    ];
    expect(checkRelease('shell', base, manifests).files.map((file) => file.name)).toEqual([
      'a',
      'latest.yml',
      'a.blockmap',
    ]);
    expect(() =>
      checkRelease('shell', [...base, { name: 'extra.exe', size: 1, sha512: SHA }], manifests),
    ).toThrow(/extra\.exe is named by no manifest/);
  });
});
