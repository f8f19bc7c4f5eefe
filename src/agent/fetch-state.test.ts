import { beforeEach, describe, expect, it } from 'vitest';
import { fetchPlayerState } from './fetch-state';
import { UnknownDeviceError } from './registration';
import { ServiceClient, ServiceError } from './service-client';
import { FakeService, ownSettings, sampleBoard, samplePlaylist } from './testing/fake-service';
import { recordingLogger } from './testing/fakes';

const NOW = Date.parse('2026-11-21T08:00:00Z');
let service: FakeService;
let log: ReturnType<typeof recordingLogger>;
let failures: { item: string; reason: string }[];

const fetchState = () =>
  fetchPlayerState(
    {
      client: new ServiceClient(service.fetch, 'http://service.test', 'secret'),
      log,
      now: () => NOW,
      mediaMap: (state) => ({ boards: Object.keys(state.boards).join(',') }),
      screen: { recordFailure: (item, reason) => failures.push({ item, reason }) },
    },
    { tag: 'lobby', name: 'Lobby' },
  );

beforeEach(() => {
  service = new FakeService(() => NOW);
  log = recordingLogger();
  failures = [];
});

describe('fetching the whole state', () => {
  it('takes the device, its playlist and each of its boards once', async () => {
    service.addDevice('lobby', 'p1');
    service.playlists.set('p1', samplePlaylist('p1', ['b1', 'b2', 'b1']));
    service.exports.set('b1', sampleBoard('One', 'cpu', 1));
    service.exports.set('b2', sampleBoard('Two', 'mem', 2));
    const state = await fetchState();
    expect(state).toMatchObject({
      device: { tag: 'lobby', name: 'lobby' },
      online: true,
      stale: false,
      last_sync: '2026-11-21T08:00:00.000Z',
      playlist: { id: 'p1' },
      media: { boards: 'b1,b2' },
    });
    expect(Object.keys(state.boards)).toEqual(['b1', 'b2']);
    expect(service.count('GET', '/boards/b1/export')).toBe(1);
  });

  it('plays without a playlist, and leaves out a board deleted meanwhile, reporting it', async () => {
    service.addDevice('lobby');
    expect((await fetchState()).playlist).toBeNull();

    service.addDevice('lobby', 'p1');
    service.playlists.set('p1', samplePlaylist('p1', ['gone']));
    expect((await fetchState()).boards).toEqual({});
    expect(log.lines).toEqual(['warn board gone of the playlist no longer exists; skipping it']);
    expect(failures).toEqual([{ item: 'board:gone', reason: 'the service has no such board (deleted?)' }]);
  });

  it('says when the device is unknown, and throws on an answer that does not fit the contract', async () => {
    await expect(fetchState()).rejects.toBeInstanceOf(UnknownDeviceError);
    service.addDevice('lobby', 'p1');
    service.playlists.set('p1', samplePlaylist('p1', ['b1']));
    service.exports.set('b1', { name: 'broken', widgets: 'nope' });
    await expect(fetchState()).rejects.toThrow(/does not fit the contract/);
    service.playlists.delete('p1');
    const missing = await fetchState().catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ServiceError);
    expect(missing).not.toBeInstanceOf(UnknownDeviceError);
  });

  it('takes the resolved settings and every playlist they can play, each board once', async () => {
    const device = service.addDevice('lobby', 'p1');
    service.settings.set('lobby', { ...ownSettings(device), playlist_id: 'p2', playlist_ids: ['p2', 'p3'] });
    service.playlists.set('p2', samplePlaylist('p2', ['b1']));
    service.playlists.set('p3', samplePlaylist('p3', ['b1', 'b2']));
    service.exports.set('b1', sampleBoard('One', 'cpu', 1));
    service.exports.set('b2', sampleBoard('Two', 'mem', 2));
    const state = await fetchState();
    expect(state).toMatchObject({ playlist: { id: 'p2' }, settings: { playlist_ids: ['p2', 'p3'] } });
    expect(Object.keys(state.playlists ?? {})).toEqual(['p2', 'p3']);
    expect(Object.keys(state.boards)).toEqual(['b1', 'b2']);
    expect(service.count('GET', '/playlists/p1')).toBe(0);
    expect(service.count('GET', '/boards/b1/export')).toBe(1);
  });

  it("plays the device's own playlist, with no settings, when the service has no settings route", async () => {
    service.settingsRoute = false;
    // Its devices have none of the settings newer services add.
    const { schedule, power, rotation, time_zone, group_id, ...older } = service.addDevice('lobby', 'p1');
    expect([schedule, power, rotation, time_zone, group_id]).toEqual([null, null, null, null, null]);
    service.devices.set('lobby', older as never);
    service.playlists.set('p1', samplePlaylist('p1', []));
    expect(await fetchState()).toMatchObject({
      playlist: { id: 'p1' },
      playlists: { p1: {} },
      settings: null,
    });
  });
});
