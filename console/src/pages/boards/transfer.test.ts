import { afterEach, describe, expect, it, vi } from 'vitest';
import { fileNameOf, importFile } from './transfer';

afterEach(() => vi.unstubAllGlobals());

describe("an exported board's file name", () => {
  it("is the board's name, with what file systems refuse as dashes", () => {
    expect(fileNameOf('Lobby')).toBe('Lobby.json');
    expect(fileNameOf('Sales: Q3/Q4 <EU>?')).toBe('Sales- Q3-Q4 -EU-.json');
    expect(fileNameOf('tab\there\\"quoted"|*')).toBe('tab-here-quoted-.json');
  });

  it('is "board" when nothing of the name is left', () => {
    expect(fileNameOf('')).toBe('board.json');
    expect(fileNameOf('   ')).toBe('board.json');
  });
});

describe('importing a board from a file', () => {
  it("sends the file's JSON and answers the new board's id", async () => {
    const fetch = vi.fn(async (_path: string, _init: RequestInit) =>
      Response.json({ id: 'b9', name: 'Hall' }),
    );
    vi.stubGlobal('fetch', fetch);
    const file = new File(['{"name":"Hall","widgets":[]}'], 'hall.json');
    await expect(importFile(file)).resolves.toEqual(['b9']);
    const [path, init] = fetch.mock.calls[0]!;
    expect([path, init.method, init.body]).toEqual([
      '/boards/import',
      'POST',
      '{"name":"Hall","widgets":[]}',
    ]);
  });

  it('imports each board of a list, in turn, and says which one was refused', async () => {
    const answers = [
      Response.json({ id: 'b1' }),
      Response.json(
        { error: { code: 'invalid_request', message: 'invalid request: name', details: [] } },
        { status: 400 },
      ),
    ];
    const fetch = vi.fn(async (_path: string, _init: RequestInit) => answers.shift()!);
    vi.stubGlobal('fetch', fetch);
    const file = new File(['[{"name":"A"},{"name":""},{"name":"C"}]'], 'boards.json');
    await expect(importFile(file)).rejects.toThrow(
      'board 2 of 3 (the 1 before it were imported): invalid request: name',
    );
    expect(fetch.mock.calls.map(([, init]) => init.body)).toEqual(['{"name":"A"}', '{"name":""}']);
  });

  it('refuses a file that is not JSON without asking the service', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const failure = importFile(new File(['name: Hall'], 'hall.yaml'));
    await expect(failure).rejects.toMatchObject({ status: 0, code: 'invalid_file' });
    await expect(failure).rejects.toThrow(/^hall\.yaml is not JSON: /);
    expect(fetch).not.toHaveBeenCalled();
  });
});
