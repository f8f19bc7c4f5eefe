import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealtimeEvent } from '../../src/shared/events';
import type { OperatorNotice } from '../../src/shared/notices';
import { withAccount } from '../accounts/scope';
import { eventsAfter, lastEventId, startTestService, type TestService } from '../test-support';
import type { ChangePipeline } from './changes';

// The change pipeline on the real store: what one emitted change becomes, and what a rolled
// back write becomes (nothing).

let service: TestService;
let changes: ChangePipeline;
const events: { event: RealtimeEvent; rooms: readonly string[] }[] = [];
const notices: { notice: OperatorNotice; account: string | undefined }[] = [];

beforeAll(async () => {
  service = await startTestService();
  changes = service.app.wallboard.changes;
  changes.onEvent((event, rooms) => events.push({ event, rooms }));
  changes.onNotice((notice, account) => notices.push({ notice, account }));
});
afterAll(() => service.close());

const heard = () => ({ events: events.splice(0), notices: notices.splice(0) });

describe('the change pipeline', () => {
  it('logs a device change with the rooms of what it names, and tells it and its notice once committed', async () => {
    const mark = await lastEventId(service.db);
    await withAccount('default', () =>
      changes.transaction(async (_tx, emit) => {
        emit({ type: 'board.changed', board_id: 'brd_1' });
        // Nothing is told before the commit.
        expect(events).toEqual([]);
      }),
    );
    const logged = await eventsAfter(service.db, mark);
    expect(logged).toEqual([expect.objectContaining({ type: 'board.changed', rooms: ['board:brd_1'] })]);
    const told = heard();
    expect(told.events).toEqual([
      { event: { id: mark + 1, type: 'board.changed', board_id: 'brd_1' }, rooms: ['board:brd_1'] },
    ]);
    expect(told.notices).toEqual([{ notice: { resource: 'boards', id: 'brd_1' }, account: 'default' }]);
  });

  it("tells a console change to its account's consoles, and logs nothing of it", async () => {
    const mark = await lastEventId(service.db);
    await withAccount('acme', () =>
      changes.transaction(async (_tx, emit) => emit({ type: 'console', resource: 'tokens', id: 'tok_1' })),
    );
    await changes.publish({ type: 'console', resource: 'pairings' });
    expect(await eventsAfter(service.db, mark)).toEqual([]);
    expect(heard()).toEqual({
      events: [],
      notices: [
        { notice: { resource: 'tokens', id: 'tok_1' }, account: 'acme' },
        { notice: { resource: 'pairings' }, account: undefined },
      ],
    });
  });

  it('derives the rooms of every kind of device change from what it names', async () => {
    const mark = await lastEventId(service.db);
    await changes.transaction(async (_tx, emit) => {
      emit({ type: 'device.changed', device_tag: 'lobby' });
      emit({ type: 'playlist.changed', playlist_id: 'pl_1' });
      emit({ type: 'metrics.changed', flow_id: 'flw_1', flow_tag: 'cpu', data: { value: 1 } });
    });
    expect((await eventsAfter(service.db, mark)).map((event) => event.rooms)).toEqual([
      ['device:lobby'],
      ['playlist:pl_1'],
      ['flow:flw_1'],
    ]);
    expect(heard().notices.map(({ notice }) => notice)).toEqual([
      { resource: 'devices', id: 'lobby' },
      { resource: 'playlists', id: 'pl_1' },
      { resource: 'flows', id: 'flw_1' },
    ]);
  });

  it('tells nothing and logs nothing of a write that rolls back', async () => {
    const mark = await lastEventId(service.db);
    await expect(
      changes.transaction(async (_tx, emit) => {
        emit({ type: 'board.changed', board_id: 'brd_2' });
        emit({ type: 'console', resource: 'users', id: 'usr_1' });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await eventsAfter(service.db, mark)).toEqual([]);
    expect(heard()).toEqual({ events: [], notices: [] });
  });
});
