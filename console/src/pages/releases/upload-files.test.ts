import { describe, expect, it } from 'vitest';
import { missingOf, releaseForm, releasePathOf, type PickedFile } from './upload-files';

const fileAt = (relative: string, name = relative.split('/').pop() ?? relative): File => {
  const file = new File(['x'], name);
  Object.defineProperty(file, 'webkitRelativePath', { value: relative });
  return file;
};
const picked = (...names: string[]): PickedFile[] =>
  names.map((name) => ({ name, file: new File(['x'], name) }));

describe('the files of an upload', () => {
  it("name a folder's files by their path in the bundle, and a lone file by its name", () => {
    expect(releasePathOf(fileAt('renderer/assets/index.js'))).toBe('assets/index.js');
    expect(releasePathOf(fileAt('', 'latest.yml'))).toBe('latest.yml');
  });

  it('say what is missing for each kind', () => {
    expect(missingOf('shell', [])).toMatch(/Pick the files/);
    expect(missingOf('shell', picked('Wallboard.AppImage'))).toMatch(/latest\.yml/);
    expect(missingOf('shell', picked('Wallboard.AppImage', 'latest-linux.yml'))).toBeNull();
    expect(missingOf('web', picked('index.html'))).toMatch(/release\.json/);
    expect(missingOf('web', picked('index.html', 'release.json'))).toBeNull();
  });

  it('go as file parts named by their path, after the fields', () => {
    const body = releaseForm({ kind: 'web', channel: 'beta', notes: '' }, picked('assets/a.js'));
    expect(body.get('kind')).toBe('web');
    expect((body.get('file') as File).name).toBe('assets/a.js');
  });
});
