import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceOverview } from '../src/shared/device';
import type { Playing } from '../src/shared/playing';
import { sampleHeartbeat } from '../src/shared/testing/device-fixtures';
import { startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';
import { okCalls } from './testing/ok-calls';

/**
 * One truth about what plays: GET /devices/:tag/playing and the overview say what a screen should
 * show by the rules its agent follows, beside what it reports, in the scheduled, off, wake and
 * override cases. Fridays, in UTC.
 */

const clock = new FakeClock('2026-11-27T09:00:00.000Z');
let service: TestService;
const ids: Record<string, string> = {};

const ok = okCalls(() => service);

/** The clock moved forward to `iso`, without walking every job's pass on the way. */
const at = (iso: string) => clock.jump(Date.parse(iso) - clock.now().getTime());
const playingOf = (tag: string) => ok<Playing>('GET', `/devices/${tag}/playing`);
const beat = (tag: string, showing: string) =>
  ok('POST', `/devices/${tag}/heartbeat`, sampleHeartbeat(showing));
const overviewOf = async (tag: string) =>
  (await ok<DeviceOverview[]>('GET', '/devices?include=status')).find((device) => device.tag === tag)
    ?.playing;
/** What the overview says of `playing`: the same, in short. */
const inShort = ({ expected, agrees, detail }: Playing) => ({
  kind: expected.kind,
  summary: expected.summary,
  agrees,
  detail,
});

beforeAll(async () => {
  service = await startTestService({ clock });
  ids.welcome = (await ok<{ id: string }>('POST', '/boards', { name: 'Welcome' }, 201)).id;
  ids.menu = (await ok<{ id: string }>('POST', '/boards', { name: 'Menu' }, 201)).id;
  const playlist = async (name: string, board: string) =>
    (
      await ok<{ id: string }>(
        'POST',
        '/playlists',
        { name, items: [{ type: 'board', board_id: board, duration: 10 }] },
        201,
      )
    ).id;
  ids.day = await playlist('Day', ids.welcome);
  ids.lunch = await playlist('Lunch', ids.menu);
  // The group's own playlist is Day, but its schedule plays Lunch on Fridays from 08:00 to 12:00.
  ids.lobby = (
    await ok<{ id: string }>(
      'POST',
      '/groups',
      {
        name: 'Lobby',
        playlist_id: ids.day,
        schedule: {
          entries: [
            {
              days: ['fri'],
              from: '08:00',
              to: '12:00',
              playlist_id: ids.lunch,
              start_date: null,
              end_date: null,
              priority: 0,
            },
          ],
          default_playlist_id: null,
        },
        time_zone: 'UTC',
      },
      201,
    )
  ).id;
  ids.night = (
    await ok<{ id: string }>(
      'POST',
      '/groups',
      {
        name: 'Night',
        playlist_id: ids.day,
        power: { off: [{ days: ['fri'], from: '06:00', to: '10:00' }] },
        time_zone: 'UTC',
      },
      201,
    )
  ).id;
  await ok('POST', '/devices', { tag: 'lobby', group_id: ids.lobby }, 201);
  await ok('POST', '/devices', { tag: 'dark', group_id: ids.night }, 201);
});
afterAll(() => service.close());

describe('what a screen should show, and what it shows', () => {
  it("follows the group's schedule, not the screen's playlist, and flags a screen playing another", async () => {
    await beat('lobby', `board:${ids.welcome}`);
    const wrong = await playingOf('lobby');
    expect(wrong.expected).toMatchObject({
      kind: 'playlist',
      reason: 'entry',
      playlist_id: ids.lunch,
      playlist_name: 'Lunch',
      summary: 'Lunch (schedule)',
    });
    expect(wrong.agrees).toBe(false);
    expect(wrong.detail).toBe('should play Lunch (schedule), shows board "Welcome"');
    expect(wrong.reported).toMatchObject({
      showing: `board:${ids.welcome}`,
      described: 'board "Welcome"',
      since: '2026-11-27T09:00:00.000Z',
    });
    expect(await overviewOf('lobby')).toEqual(inShort(wrong));

    await clock.advance(60_000);
    await beat('lobby', `board:${ids.menu}`);
    const right = await playingOf('lobby');
    expect(right).toMatchObject({ agrees: true, detail: null });
    expect(await overviewOf('lobby')).toEqual(inShort(right));

    // At noon the entry ends: the group's playlist, and the screen still on Lunch disagrees.
    await clock.advance(3 * 3_600_000);
    expect((await playingOf('lobby')).expected).toMatchObject({ playlist_name: 'Day', reason: 'playlist' });
    await beat('lobby', `board:${ids.menu}`);
    expect((await playingOf('lobby')).agrees).toBe(false);
  });

  it('says a screen in its power window should be off, and a woken one should play', async () => {
    await at('2026-12-04T09:00:00.000Z');
    await beat('dark', `board:${ids.welcome}`);
    const lit = await playingOf('dark');
    expect(lit.expected).toMatchObject({ kind: 'off', reason: 'power', summary: 'off (power window)' });
    expect(lit.detail).toBe('should show off (power window), shows board "Welcome"');
    await beat('dark', 'off');
    expect((await playingOf('dark')).agrees).toBe(true);

    // Woken by a command: on, playing its playlist, until the window ends at 10:00.
    const wake = await ok<{ id: string }>('POST', '/devices/dark/commands', { type: 'wake' }, 202);
    await ok('POST', `/devices/dark/commands/${wake.id}/result`, { status: 'done' });
    await beat('dark', `board:${ids.welcome}`);
    const woken = await playingOf('dark');
    expect(woken.expected).toMatchObject({ kind: 'playlist', reason: 'woken', playlist_name: 'Day' });
    expect(woken.agrees).toBe(true);
    // The next morning's window finds the wake spent.
    await at('2026-12-11T09:00:00.000Z');
    expect((await playingOf('dark')).expected.kind).toBe('off');
  });

  it('puts an override above the schedule and the power window, and knows the screen showing it', async () => {
    await at('2026-12-11T09:30:00.000Z');
    const override = await ok<{ id: string }>(
      'POST',
      '/overrides',
      { title: 'Fire alarm', message: 'Leave now.', target: { all: true } },
      201,
    );
    await beat('dark', 'off');
    const asleep = await playingOf('dark');
    expect(asleep.expected).toMatchObject({
      kind: 'override',
      override: { id: override.id, title: 'Fire alarm' },
      summary: 'the emergency message "Fire alarm"',
    });
    expect(asleep.detail).toBe('should show the emergency message "Fire alarm", shows off');
    await beat('dark', `override:${override.id}`);
    expect((await playingOf('dark')).agrees).toBe(true);
    await ok('DELETE', `/overrides/${override.id}`, undefined, 204);
    expect((await playingOf('dark')).expected.kind).toBe('off');
  });

  it('tells nothing of a screen that is offline or hidden', async () => {
    await ok('POST', '/devices', { tag: 'never' }, 201);
    expect(await playingOf('never')).toMatchObject({ reported: null, agrees: null, detail: null });
    await beat('lobby', 'hidden');
    expect((await playingOf('lobby')).agrees).toBeNull();
    await ok('POST', '/devices/lobby/offline', {});
    expect(await playingOf('lobby')).toMatchObject({ reported: null, agrees: null });
    expect((await service.call('GET', '/devices/nobody/playing')).statusCode).toBe(404);
  });
});
