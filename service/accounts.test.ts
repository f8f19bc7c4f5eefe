import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type AccountCall, type TestService } from './test-support';

// Accounts: each sees its own resources only, and names and tags are unique within one.
let service: TestService;
let other: { id: string; call: AccountCall };

beforeAll(async () => {
  service = await startTestService();
  other = await service.addAccount('Other');
});
afterAll(() => service.close());

describe('accounts', () => {
  it('lets two accounts have a screen of the same tag, each seeing its own', async () => {
    expect((await service.call('POST', '/devices', { tag: 'lobby', name: 'Ours' })).statusCode).toBe(201);
    expect((await other.call('POST', '/devices', { tag: 'lobby', name: 'Theirs' })).statusCode).toBe(201);
    expect((await service.call('POST', '/devices', { tag: 'lobby' })).statusCode).toBe(409);
    const ours = await service.call('GET', '/devices/lobby');
    const theirs = await other.call('GET', '/devices/lobby');
    expect(ours.json().name).toBe('Ours');
    expect(theirs.json().name).toBe('Theirs');
    expect((await other.call('GET', '/devices')).json().map((d: { name: string }) => d.name)).toEqual([
      'Theirs',
    ]);
  });

  it("answers 404 for another account's board, and changes nothing of it", async () => {
    const board = (await service.call('POST', '/boards', { name: 'Sales' })).json<{ id: string }>();
    expect((await other.call('GET', `/boards/${board.id}`)).statusCode).toBe(404);
    expect((await other.call('DELETE', `/boards/${board.id}`)).statusCode).toBe(404);
    expect((await service.call('GET', `/boards/${board.id}`)).statusCode).toBe(200);
  });

  it('gives each account its own default channel', async () => {
    const ours = (await service.call('GET', '/channels')).json<{ id: string; tag: string }[]>();
    const theirs = (await other.call('GET', '/channels')).json<{ id: string; tag: string }[]>();
    expect(ours.map((c) => c.tag)).toEqual(['default']);
    expect(theirs.map((c) => c.tag)).toEqual(['default']);
    expect(theirs[0]?.id).not.toBe(ours[0]?.id);
  });
});

describe('the account', () => {
  it('is told to its callers, each its own', async () => {
    expect((await service.call('GET', '/account')).json()).toMatchObject({ id: 'default', name: 'Default' });
    expect((await other.call('GET', '/account')).json()).toMatchObject({ id: other.id, name: 'Other' });
  });
});
