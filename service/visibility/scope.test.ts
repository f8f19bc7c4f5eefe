import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withAccount } from '../accounts/scope';
import { deviceView } from '../http/device-scope';
import { FlowRepository } from '../repositories/flows';
import { startTestService, type TestService } from '../test-support';
import { withBoundDevice } from './scope';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
  for (const tag of ['shown', 'hidden']) {
    expect((await service.call('POST', '/flows', { tag, variant: 'value' })).statusCode).toBe(201);
  }
  const board = (
    await service.call('POST', '/boards/import', {
      name: 'Lobby',
      widgets: [
        { flow: { tag: 'shown', data: {} }, variant: 'value', column: 0, row: 0, width: 4, height: 4 },
      ],
    })
  ).json<{ id: string }>();
  const playlist = (
    await service.call('POST', '/playlists', {
      name: 'Lobby',
      items: [{ type: 'board', board_id: board.id, duration: 10 }],
    })
  ).json<{ id: string }>();
  const device = { tag: 'lobby', name: 'Lobby', playlist_id: playlist.id };
  expect((await service.call('POST', '/devices', device)).statusCode).toBe(201);
});
afterAll(() => service.close());

describe('what a device-bound request sees', () => {
  it('is read inside the transaction of the first read that needs it, which then sees only that', async () => {
    // The embedded store has one connection, held by the transaction: a view read beside it
    // would wait for it forever.
    // As a request is run: in its account, bound to its device.
    const tags = await withAccount('default', () =>
      withBoundDevice(
        'lobby',
        (db) => deviceView(db, 'lobby'),
        () =>
          service.app.wallboard.db.transaction(async (tx) =>
            (await new FlowRepository(tx).list()).map((flow) => flow.tag),
          ),
      ),
    );
    expect(tags).toEqual(['shown']);
  }, 10_000);
});
