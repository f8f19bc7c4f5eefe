import { describe, expect, it } from 'vitest';
import { reachWords, targetOf, whereWords, withTargetErrors, type TargetFields } from './target';

const fields = (over: Partial<TargetFields>): TargetFields => ({
  where: 'channel',
  channel_id: '',
  group_id: '',
  device_tag: '',
  ...over,
});
const names = {
  channels: new Map([['ch_1', 'Alerts']]),
  groups: new Map([['g_1', 'Lobby']]),
};

describe("the notification form's target", () => {
  it('sends the one target chosen', () => {
    expect(targetOf(fields({ where: 'channel', channel_id: 'ch_1', group_id: 'g_1' }))).toEqual({
      channel_id: 'ch_1',
    });
    expect(targetOf(fields({ where: 'group', group_id: 'g_1' }))).toEqual({ group_id: 'g_1' });
    expect(targetOf(fields({ where: 'screen', device_tag: 'lobby' }))).toEqual({ device_tag: 'lobby' });
    expect(targetOf(fields({ where: 'all', group_id: 'g_1' }))).toEqual({ all: true });
  });

  it("puts the target's errors on the select shown: choose one when empty, else what was said", () => {
    const errors = { 'target.group_id': 'must not be empty', title: 'is required when message is given' };
    expect(withTargetErrors(errors, fields({ where: 'group' }))).toEqual({
      group_id: 'Choose a group',
      title: 'is required when message is given',
    });
    const refused = { 'target.group_id': 'must name an existing group' };
    expect(withTargetErrors(refused, fields({ where: 'group', group_id: 'g_gone' }))).toEqual({
      group_id: 'must name an existing group',
    });
    expect(withTargetErrors({ target: 'must be' }, fields({ where: 'screen' }))).toEqual({
      device_tag: 'Choose a screen',
    });
    expect(withTargetErrors({}, fields({}))).toEqual({});
  });

  it('says where one went and which screens one would reach, in words', () => {
    expect(whereWords({ channel_id: 'ch_1' }, names)).toBe('Channel Alerts');
    expect(whereWords({ group_id: 'g_gone' }, names)).toBe('Group g_gone');
    expect(whereWords({ device_tag: 'lobby' }, names)).toBe('Screen lobby');
    expect(whereWords({ all: true }, names)).toBe('Every screen');
    const screens = [{ group_id: 'g_1' }, { group_id: null }, { group_id: 'g_1' }];
    expect(reachWords(fields({ where: 'group', group_id: 'g_1' }), names, screens)).toBe(
      'the 2 screens of Lobby',
    );
    expect(reachWords(fields({ where: 'all' }), names, screens)).toBe('every screen (3 screens)');
    expect(reachWords(fields({ where: 'channel', channel_id: 'ch_1' }), names, screens)).toBe(
      'the screens whose board on screen uses the channel Alerts',
    );
    expect(reachWords(fields({ where: 'screen' }), names, screens)).toBe('one screen');
  });
});
