import { describe, expect, it } from 'vitest';
import { LocalBus } from './node-state';

/** A bus and what its subscribers to two topics heard. */
function listening() {
  const bus = new LocalBus();
  const heard: unknown[] = [];
  bus.subscribe('scripts.changed', (payload) => heard.push(payload));
  bus.subscribe('realtime.event', (payload) => heard.push(payload));
  bus.subscribe('operators.notice', (payload) => heard.push(payload));
  return { bus, heard };
}

describe('a message between the nodes, where it enters this node', () => {
  it('is delivered when it fits its topic', () => {
    const { bus, heard } = listening();
    expect(bus.heard('scripts.changed', { id: 'scr_1', from: 'node-b' })).toBeNull();
    const event = { id: 7, type: 'board.changed', board_id: 'board_1' };
    expect(bus.heard('realtime.event', { event, rooms: ['board:board_1'] })).toBeNull();
    const notice = { notice: { resource: 'tokens', id: 'tok_1' }, account: 'acme' };
    expect(bus.heard('operators.notice', notice)).toBeNull();
    expect(heard).toEqual([{ id: 'scr_1', from: 'node-b' }, { event, rooms: ['board:board_1'] }, notice]);
  });

  it('is dropped, saying why, when its topic is unknown or its payload does not fit', () => {
    const { bus, heard } = listening();
    expect(bus.heard('scripts.deleted', { id: 'scr_1' })).toMatch(/unknown topic "scripts.deleted"/);
    expect(bus.heard('scripts.changed', { id: 5, from: 'node-b' })).toMatch(/"scripts.changed".*id/);
    const forged = { event: { id: 8, type: 'board.changed' }, rooms: ['board:x'] };
    expect(bus.heard('realtime.event', forged)).toMatch(/"realtime.event".*event\.board_id/);
    const unknownResource = { notice: { resource: 'secrets' }, account: null };
    expect(bus.heard('operators.notice', unknownResource)).toMatch(/"operators.notice".*notice\.resource/);
    expect(bus.heard('__proto__', {})).toMatch(/unknown topic/);
    expect(heard).toEqual([]);
  });

  it("delivers this node's own publications as they are", () => {
    const { bus, heard } = listening();
    bus.publish('scripts.changed', { id: 'scr_2', from: 'node-a' });
    expect(heard).toEqual([{ id: 'scr_2', from: 'node-a' }]);
  });
});
