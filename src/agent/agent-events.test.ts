import { describe, expect, it } from 'vitest';
import type { BridgeMessage } from '../shared/bridge';
import { tellRenderer, TypedEvents, type AgentEvents } from './agent-events';
import { emptyState } from './player-state';

describe('TypedEvents', () => {
  it('tells each listener of an event in the order they were added, until it unsubscribes', () => {
    const events = new TypedEvents<{ count: number; done: undefined }>();
    const heard: string[] = [];
    const unsubscribe = events.on('count', (n) => heard.push(`first ${n}`));
    events.on('count', (n) => heard.push(`second ${n}`));
    events.on('done', () => heard.push('done'));
    events.emit('count', 1);
    unsubscribe();
    events.emit('count', 2);
    events.emit('done');
    expect(heard).toEqual(['first 1', 'second 1', 'second 2', 'done']);
  });

  it('tells nothing of an event no one listens to', () => {
    expect(() => new TypedEvents<{ lonely: string }>().emit('lonely', 'anyone?')).not.toThrow();
  });
});

describe('tellRenderer', () => {
  it('tells a state to those that follow states before the renderer hears its message', () => {
    const events = new TypedEvents<AgentEvents>();
    const heard: string[] = [];
    events.on('message', (message: BridgeMessage) => heard.push(`message ${message.kind}`));
    events.on('state', () => heard.push('state'));
    tellRenderer(events, { kind: 'state', state: emptyState({ tag: 'lobby', name: 'Lobby' }) });
    tellRenderer(events, { kind: 'reload', reason: 'the player restarts' });
    expect(heard).toEqual(['state', 'message state', 'message reload']);
  });
});
