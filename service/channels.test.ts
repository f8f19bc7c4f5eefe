import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsAfter, lastEventId, startTestService, type TestService } from './test-support';

let service: TestService;
let readonly: string;
let affiliated: string;
beforeAll(async () => {
  service = await startTestService();
  readonly = await service.tokenOf('readonly');
  affiliated = await service.tokenOf('affiliated');
});
afterAll(() => service.close());

interface Channel {
  id: string;
  type: string;
  name: string;
  tag: string;
  parent_channel_id: string | null;
}

async function createChannel(body: Record<string, unknown>): Promise<Channel> {
  const response = await service.call('POST', '/channels', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const DEFAULT = {
  id: 'ch_default',
  type: 'default',
  name: 'Default',
  tag: 'default',
  parent_channel_id: null,
};

describe('reading channels', () => {
  it('has the default channel from the start', async () => {
    expect((await service.call('GET', '/channels')).json()).toContainEqual(DEFAULT);
    expect((await service.call('GET', '/channels/ch_default')).json()).toEqual(DEFAULT);
  });

  it('answers 404 for an unknown channel', async () => {
    const response = await service.call('GET', '/channels/ch_nope');
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('not_found');
  });
});

describe('creating channels', () => {
  it('creates virtual channels only, with a tag made of the name', async () => {
    const response = await service.call('POST', '/channels', {
      name: 'Sales EU (night)',
      parent_channel_id: 'ch_default',
    });
    expect(response.statusCode).toBe(201);
    const channel = response.json();
    expect(channel).toEqual({
      id: expect.stringMatching(/^ch_/),
      type: 'virtualized',
      name: 'Sales EU (night)',
      tag: 'sales-eu-night',
      parent_channel_id: 'ch_default',
    });
    expect((await service.call('GET', `/channels/${channel.id}`)).json()).toEqual(channel);
    expect((await service.call('GET', '/channels')).json()).toContainEqual(channel);
  });

  it('makes the tag unique with -2, -3…', async () => {
    const tags = [];
    for (let i = 0; i < 3; i++) {
      tags.push((await createChannel({ name: 'Lobby screen', parent_channel_id: 'ch_default' })).tag);
    }
    expect(tags).toEqual(['lobby-screen', 'lobby-screen-2', 'lobby-screen-3']);
    expect((await createChannel({ name: 'Default', parent_channel_id: 'ch_default' })).tag).toBe('default-2');
    expect((await createChannel({ name: 'Ünïcode Café', parent_channel_id: 'ch_default' })).tag).toBe(
      'unicode-cafe',
    );
    expect((await createChannel({ name: '!!!', parent_channel_id: 'ch_default' })).tag).toBe('channel');
    const long = await createChannel({ name: 'x'.repeat(255), parent_channel_id: 'ch_default' });
    expect(long.tag.length).toBeLessThanOrEqual(100);
  });

  it('takes an explicit tag and a virtual parent', async () => {
    const parent = await createChannel({ name: 'Parent', parent_channel_id: 'ch_default', tag: 'parent-1' });
    expect(parent.tag).toBe('parent-1');
    const child = await createChannel({ name: 'Child', parent_channel_id: parent.id });
    expect(child).toMatchObject({ parent_channel_id: parent.id, type: 'virtualized' });
  });

  it('refuses a taken tag with 409', async () => {
    await createChannel({ name: 'One', parent_channel_id: 'ch_default', tag: 'taken' });
    const response = await service.call('POST', '/channels', {
      name: 'Two',
      parent_channel_id: 'ch_default',
      tag: 'taken',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toContain('taken');
    expect(
      (
        await service.call('POST', '/channels', {
          name: 'Three',
          parent_channel_id: 'ch_default',
          tag: 'default',
        })
      ).statusCode,
    ).toBe(409);
  });

  it('refuses a missing or unknown parent with 400 naming body.parent_channel_id', async () => {
    for (const body of [{ name: 'Orphan' }, { name: 'Orphan', parent_channel_id: 'ch_nope' }]) {
      const response = await service.call('POST', '/channels', body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.details).toEqual([
        { path: 'body.parent_channel_id', message: expect.any(String) },
      ]);
    }
  });

  it('refuses bad names, tags and fields with details naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '', parent_channel_id: 'ch_default' }, 'body.name'],
      [{ name: '   ', parent_channel_id: 'ch_default' }, 'body.name'],
      [{ name: 'x'.repeat(256), parent_channel_id: 'ch_default' }, 'body.name'],
      [{ name: 'Tagged', parent_channel_id: 'ch_default', tag: 'has space' }, 'body.tag'],
      [{ name: 'Typed', parent_channel_id: 'ch_default', type: 'default' }, 'body.type'],
    ];
    for (const [body, path] of cases) {
      const response = await service.call('POST', '/channels', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
  });
});

describe('updating channels', () => {
  it('renames a channel and changes its tag', async () => {
    const channel = await createChannel({ name: 'Before', parent_channel_id: 'ch_default' });
    const response = await service.call('PATCH', `/channels/${channel.id}`, { name: 'After', tag: 'after' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ...channel, name: 'After', tag: 'after' });
    expect((await service.call('PATCH', `/channels/${channel.id}`, {})).json()).toEqual({
      ...channel,
      name: 'After',
      tag: 'after',
    });
  });

  it('refuses a taken tag (409), bad fields (400) and unknown channels (404)', async () => {
    const channel = await createChannel({ name: 'Mine', parent_channel_id: 'ch_default' });
    expect((await service.call('PATCH', `/channels/${channel.id}`, { tag: 'default' })).statusCode).toBe(409);
    const bad = await service.call('PATCH', `/channels/${channel.id}`, { name: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].path).toBe('body.name');
    expect(
      (await service.call('PATCH', `/channels/${channel.id}`, { parent_channel_id: 'x' })).statusCode,
    ).toBe(400);
    expect((await service.call('PATCH', '/channels/ch_nope', { name: 'x' })).statusCode).toBe(404);
  });
});

describe('deleting channels', () => {
  it('refuses to delete the default channel with 409', async () => {
    const response = await service.call('DELETE', '/channels/ch_default');
    expect(response.statusCode).toBe(409);
    expect((await service.call('GET', '/channels/ch_default')).statusCode).toBe(200);
  });

  it('deletes virtual children and notifications; flows lose their channel and are announced', async () => {
    const parent = await createChannel({ name: 'Doomed', parent_channel_id: 'ch_default' });
    const child = await createChannel({ name: 'Doomed child', parent_channel_id: parent.id });
    const survivor = await createChannel({ name: 'Survivor', parent_channel_id: 'ch_default' });
    const flowIn = async (tag: string, channel: string) =>
      (await service.call('POST', '/flows', { tag, variant: 'value', channel_id: channel })).json()
        .id as string;
    const parentFlow = await flowIn('in-parent', parent.id);
    const childFlow = await flowIn('in-child', child.id);
    const otherFlow = await flowIn('in-survivor', survivor.id);
    for (const channel of [parent.id, child.id, survivor.id]) {
      const sent = await service.call('POST', `/channels/${channel}/notifications`, {
        title: 't',
        message: 'm',
      });
      expect(sent.statusCode).toBe(201);
    }
    const mark = await lastEventId(service.db);

    const response = await service.call('DELETE', `/channels/${parent.id}`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');

    expect((await service.call('GET', `/channels/${parent.id}`)).statusCode).toBe(404);
    expect((await service.call('GET', `/channels/${child.id}`)).statusCode).toBe(404);
    const notifications = (await service.call('GET', '/notifications')).json() as { channel_id: string }[];
    expect(notifications.map((n) => n.channel_id)).toEqual([survivor.id]);
    const flows = (await service.call('GET', '/flows')).json() as { id: string; channel_id: string | null }[];
    const channelOf = (id: string) => flows.find((flow) => flow.id === id)?.channel_id;
    expect([channelOf(parentFlow), channelOf(childFlow), channelOf(otherFlow)]).toEqual([
      null,
      null,
      survivor.id,
    ]);

    const events = await eventsAfter(service.db, mark);
    expect(events).toHaveLength(2);
    expect(events.map((event) => event.type)).toEqual(['flow.changed', 'flow.changed']);
    expect(new Set(events.map((event) => event.payload.flow_id))).toEqual(new Set([parentFlow, childFlow]));
    for (const event of events) expect(event.rooms).toEqual([`flow:${event.payload.flow_id}`]);

    expect((await service.call('DELETE', `/channels/${parent.id}`)).statusCode).toBe(404);
  });
});

describe('deleting a channel that boards and playlists use', () => {
  it('takes it out of boards (the default takes over) and out of playlist items, announcing both', async () => {
    const channel = (
      await service.call('POST', '/channels', { name: 'Doomed', parent_channel_id: 'ch_default' })
    ).json();
    const other = (
      await service.call('POST', '/channels', { name: 'Kept', parent_channel_id: 'ch_default' })
    ).json();
    const only = (await service.call('POST', '/boards', { name: 'Only', channel_ids: [channel.id] })).json();
    const both = (
      await service.call('POST', '/boards', { name: 'Both', channel_ids: [channel.id, other.id] })
    ).json();
    const playlist = (
      await service.call('POST', '/playlists', {
        name: 'Uses it',
        items: [{ type: 'board', board_id: both.id, channel_id: channel.id, duration: 5 }],
      })
    ).json();

    expect((await service.call('DELETE', `/channels/${channel.id}`)).statusCode).toBe(204);

    expect((await service.call('GET', `/boards/${only.id}`)).json().channel_ids).toEqual(['ch_default']);
    expect((await service.call('GET', `/boards/${both.id}`)).json().channel_ids).toEqual([other.id]);
    expect((await service.call('GET', `/playlists/${playlist.id}`)).json().items[0].channel_id).toBeNull();
    const patched = await service.call('PATCH', `/boards/${only.id}`, { name: 'Only, renamed' });
    expect(patched.statusCode).toBe(200);
    const events = (await eventsAfter(service.db, 0)).filter((e) =>
      ['board.changed', 'playlist.changed'].includes(e.type),
    );
    const announced = events.map((e) => e.payload.board_id ?? e.payload.playlist_id);
    expect(announced).toEqual(expect.arrayContaining([only.id, both.id, playlist.id]));
  });
});

describe('channel permissions', () => {
  it('lets readonly tokens read, and refuses every write with 403', async () => {
    const channel = await createChannel({ name: 'Guarded', parent_channel_id: 'ch_default' });
    expect((await service.call('GET', '/channels', undefined, readonly)).statusCode).toBe(200);
    expect((await service.call('GET', `/channels/${channel.id}`, undefined, readonly)).statusCode).toBe(200);
    const body = { name: 'No', parent_channel_id: 'ch_default' };
    expect((await service.call('POST', '/channels', body, readonly)).statusCode).toBe(403);
    expect(
      (await service.call('PATCH', `/channels/${channel.id}`, { name: 'No' }, readonly)).statusCode,
    ).toBe(403);
    expect((await service.call('DELETE', `/channels/${channel.id}`, undefined, readonly)).statusCode).toBe(
      403,
    );
  });

  it('lets affiliated tokens read but not create, update or delete channels', async () => {
    const channel = await createChannel({ name: 'Guarded too', parent_channel_id: 'ch_default' });
    expect((await service.call('GET', '/channels', undefined, affiliated)).statusCode).toBe(200);
    const body = { name: 'No', parent_channel_id: 'ch_default' };
    expect((await service.call('POST', '/channels', body, affiliated)).statusCode).toBe(403);
    expect(
      (await service.call('PATCH', `/channels/${channel.id}`, { name: 'No' }, affiliated)).statusCode,
    ).toBe(403);
    expect((await service.call('DELETE', `/channels/${channel.id}`, undefined, affiliated)).statusCode).toBe(
      403,
    );
    expect((await service.call('GET', `/channels/${channel.id}`)).json().name).toBe('Guarded too');
  });
});
