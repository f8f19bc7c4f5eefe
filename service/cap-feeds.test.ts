import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapFeed } from '../src/shared/cap-feed';
import type { Override, OverrideShown } from '../src/shared/override';
import { SEVERITY_COLORS } from './cap/plan';
import { atomFeed, capDocument, rssFeed, type AlertSpec } from './cap/testing/cap-xml';
import { FeedServer } from './cap/testing/feed-server';
import { CAP_PASS_MS } from './jobs/cap-feeds';
import { eventsAfter, lastEventId, startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';
import { okCalls } from './testing/ok-calls';

// CAP feeds end to end (docs/api/overrides.md, "CAP feeds"): the real service on its fake clock,
// its job polling feeds that a real HTTP server on loopback serves, written here. Each test adds
// feeds of its own and removes them at its end, so no feed of one is polled in another.

const clock = new FakeClock('2026-11-27T09:00:00.000Z');
const server = new FeedServer();
let service: TestService;
let lobby: string;

const ok = okCalls(() => service);
const MiB = 1024 * 1024;

/** A new feed is polled at the job's next pass; this ends at that poll. */
const firstPoll = () => clock.advance(CAP_PASS_MS);
/** Every feed is polled every 30 s here: after its first poll, this ends at its next. */
const poll = () => clock.advance(30_000);
/** A CAP time, as senders write it: UTC as `-00:00`, `ms` from the clock's now. */
const capIn = (ms: number) => new Date(clock.now().getTime() + ms).toISOString().replace(/\.\d+Z$/, '-00:00');

const addFeed = (body: Record<string, unknown>) =>
  ok<CapFeed>('POST', '/cap-feeds', { poll_seconds: 30, target: { all: true }, ...body }, 201);
const feedNamed = async (id: string) =>
  (await ok<CapFeed[]>('GET', '/cap-feeds')).find((feed) => feed.id === id);
/** The overrides a feed raised, oldest first, ended ones too (the audit list, newest first). */
const raisedBy = async (feed: string) =>
  (await ok<Override[]>('GET', '/overrides/history'))
    .filter((override) => override.source?.cap_feed_id === feed)
    .reverse();
const shownOn = async (tag: string) =>
  (await ok<{ override: OverrideShown | null }>('GET', `/devices/${tag}/settings`)).override;
const removeFeed = (id: string) => ok('DELETE', `/cap-feeds/${id}`, undefined, 204);

const storm = (identifier: string, extra: Partial<AlertSpec> = {}): AlertSpec => ({
  identifier,
  infos: [
    {
      event: 'Storm',
      severity: 'Severe',
      headline: `Storm warning ${identifier}`,
      description: 'Gusts of 120 km/h along the coast.',
      instruction: 'Stay inside and away from windows.',
      areas: [{ desc: 'Harbour; North Shore', geocodes: [{ name: 'EMMA_ID', value: 'XX001' }] }],
    },
  ],
  ...extra,
});

beforeAll(async () => {
  await server.start();
  service = await startTestService({ clock });
  lobby = (await ok<{ id: string }>('POST', '/groups', { name: 'Lobby' }, 201)).id;
  for (const tag of ['lobby-1', 'lobby-2']) await ok('POST', '/devices', { tag, group_id: lobby }, 201);
  await ok('POST', '/devices', { tag: 'alone' }, 201);
});
afterAll(async () => {
  await service.close();
  await server.close();
});

describe('a CAP feed', () => {
  it('raises an alert on its target once, named in the audit list as the feed, and shows its state', async () => {
    server.xml(
      '/one.xml',
      capDocument(storm('S-1', { infos: [{ ...storm('S-1').infos?.[0], expires: capIn(3_600_000) }] })),
    );
    const feed = await addFeed({
      url: server.url('/one.xml'),
      name: 'Coast guard',
      target: { group_id: lobby },
    });
    expect(feed).toMatchObject({
      name: 'Coast guard',
      min_severity: 'Severe',
      areas: [],
      poll_seconds: 30,
      created_by: 'token "test admin"',
      last_polled_at: null,
      last_error: null,
    });
    const mark = await lastEventId(service.db);
    await clock.advance(CAP_PASS_MS);
    const [raised, ...more] = await raisedBy(feed.id);
    expect(more).toEqual([]);
    expect(raised).toMatchObject({
      title: 'Storm warning S-1',
      message: 'Gusts of 120 km/h along the coast.\n\nStay inside and away from windows.',
      background_color: SEVERITY_COLORS.Severe,
      expires_at: new Date(clock.now().getTime() - CAP_PASS_MS + 3_600_000).toISOString(),
      target: { group_id: lobby },
      created_by: 'cap-feed:Coast guard',
      source: { cap_feed_id: feed.id, cap_identifier: 'S-1' },
      active: true,
    });
    const told = (await eventsAfter(service.db, mark, 'device.changed')).map((e) => e.payload.device_tag);
    expect(told.sort()).toEqual(['lobby-1', 'lobby-2']);
    expect((await shownOn('lobby-1'))?.id).toBe(raised?.id);
    expect(await shownOn('alone')).toBeNull();
    expect(await feedNamed(feed.id)).toMatchObject({
      last_polled_at: clock.now().toISOString(),
      last_ok_at: clock.now().toISOString(),
      last_error: null,
    });

    for (let i = 0; i < 3; i++) await poll();
    expect(server.at('/one.xml').length).toBe(4);
    expect(await raisedBy(feed.id)).toHaveLength(1);
    await removeFeed(feed.id);
  });

  it('takes the alerts at or above its severity, of its areas, Actual, not expired; names its host by default', async () => {
    server.xml(
      '/filtered.xml',
      atomFeed([
        { alert: storm('moderate', { infos: [{ severity: 'Moderate', areas: [{ desc: 'Harbour' }] }] }) },
        { alert: storm('elsewhere', { infos: [{ severity: 'Extreme', areas: [{ desc: 'South Hills' }] }] }) },
        {
          alert: storm('by-geocode', {
            infos: [
              {
                severity: 'Extreme',
                areas: [{ desc: 'Zone 1', geocodes: [{ name: 'EMMA_ID', value: 'xx001' }] }],
              },
            ],
          }),
        },
        { alert: storm('by-name') },
        { alert: storm('exercise', { status: 'Exercise' }) },
        {
          alert: storm('expired', {
            infos: [{ severity: 'Extreme', areas: [{ desc: 'Harbour' }], expires: capIn(-1_000) }],
          }),
        },
      ]),
      'application/atom+xml',
    );
    const feed = await addFeed({
      url: server.url('/filtered.xml'),
      areas: ['harbour', 'XX001'],
      target: { device_tag: 'alone' },
    });
    expect(feed.name).toBe(new URL(server.url('/')).host);
    await firstPoll();
    const raised = await raisedBy(feed.id);
    expect(raised.map((override) => override.source?.cap_identifier)).toEqual(['by-geocode', 'by-name']);
    expect(raised[0]?.background_color).toBe(SEVERITY_COLORS.Extreme);
    expect((await shownOn('alone'))?.id).toBe(raised[1]?.id);
    await removeFeed(feed.id);
  });

  it('replaces an alert by its Update, clears it at its Cancel, and when it leaves the feed', async () => {
    server.xml('/changing.xml', capDocument(storm('U-1')));
    const feed = await addFeed({ url: server.url('/changing.xml'), name: 'Weather service' });
    await firstPoll();
    const [first] = await raisedBy(feed.id);
    expect(first?.active).toBe(true);

    // The update may stand beside the alert it updates: the older one is not raised again.
    const update = storm('U-2', { msgType: 'Update', references: ['U-1'] });
    update.infos = [{ ...update.infos?.[0], headline: 'Storm warning, now stronger', severity: 'Extreme' }];
    server.xml('/changing.xml', atomFeed([{ alert: storm('U-1') }, { alert: update }]));
    await poll();
    const afterUpdate = await raisedBy(feed.id);
    expect(afterUpdate.map((o) => [o.source?.cap_identifier, o.active, o.cleared_by])).toEqual([
      ['U-1', false, 'cap-feed:Weather service'],
      ['U-2', true, null],
    ]);
    expect(afterUpdate[1]).toMatchObject({
      title: 'Storm warning, now stronger',
      created_by: 'cap-feed:Weather service',
    });
    expect((await shownOn('alone'))?.id).toBe(afterUpdate[1]?.id);

    server.xml(
      '/changing.xml',
      capDocument({ identifier: 'U-3', msgType: 'Cancel', references: ['U-2'], infos: [] }),
    );
    await poll();
    expect((await raisedBy(feed.id)).map((o) => o.active)).toEqual([false, false]);
    expect(await shownOn('alone')).toBeNull();
    expect(await ok<Override[]>('GET', '/overrides')).toEqual([]);

    server.xml('/changing.xml', capDocument(storm('G-1')));
    await poll();
    expect((await raisedBy(feed.id)).at(-1)).toMatchObject({
      source: { cap_identifier: 'G-1' },
      active: true,
    });
    server.xml('/changing.xml', atomFeed([]));
    await poll();
    expect((await raisedBy(feed.id)).at(-1)).toMatchObject({
      active: false,
      cleared_at: clock.now().toISOString(),
      cleared_by: 'cap-feed:Weather service',
    });
    await removeFeed(feed.id);
  });

  it("ends an override at its alert's expiry, without a write, and never raises an expired alert", async () => {
    const expires = capIn(45_000);
    server.xml('/expiring.xml', capDocument(storm('E-1', { infos: [{ severity: 'Extreme', expires }] })));
    const feed = await addFeed({ url: server.url('/expiring.xml') });
    await firstPoll();
    const [raised] = await raisedBy(feed.id);
    expect(raised).toMatchObject({ expires_at: new Date(Date.parse(expires)).toISOString(), active: true });
    await poll();
    await poll();
    // Still in the feed, past its expiry: ended by itself, not cleared, not raised again.
    expect(await raisedBy(feed.id)).toEqual([
      expect.objectContaining({ id: raised?.id, active: false, cleared_at: null }),
    ]);
    expect(await shownOn('alone')).toBeNull();
    await removeFeed(feed.id);
  });

  it('keeps its overrides as they are while it fails, and says why; back, it goes on from there', async () => {
    server.xml('/flaky.xml', capDocument(storm('F-1')));
    const feed = await addFeed({ url: server.url('/flaky.xml'), name: 'Flaky' });
    await firstPoll();
    const [raised] = await raisedBy(feed.id);
    const okAt = clock.now().toISOString();
    const failures: [Parameters<FeedServer['set']>[1], string | RegExp][] = [
      [{ kind: 'status', status: 503 }, 'answered 503'],
      [{ kind: 'xml', body: '<alert><identifier>F-1</alert>' }, 'the document is not well-formed XML'],
      [
        { kind: 'xml', body: '<html><body>Down for maintenance</body></html>' },
        'neither a CAP alert nor an Atom or RSS feed',
      ],
      [
        { kind: 'xml', body: capDocument({ identifier: '', infos: [] }) },
        'the alert is not CAP: it has no <identifier>',
      ],
    ];
    for (const [answer, why] of failures) {
      server.set('/flaky.xml', answer);
      await poll();
      expect(await feedNamed(feed.id)).toMatchObject({
        last_polled_at: clock.now().toISOString(),
        last_ok_at: okAt,
        last_error: expect.stringMatching(why),
      });
      expect(await raisedBy(feed.id)).toEqual([expect.objectContaining({ id: raised?.id, active: true })]);
    }
    server.xml('/flaky.xml', capDocument(storm('F-1')));
    await poll();
    expect(await feedNamed(feed.id)).toMatchObject({
      last_error: null,
      last_ok_at: clock.now().toISOString(),
    });
    expect(await raisedBy(feed.id)).toEqual([expect.objectContaining({ id: raised?.id, active: true })]);
    await removeFeed(feed.id);
  });

  it('refuses a body past 1 MiB by the bytes read, and one it cannot reach, changing nothing', async () => {
    server.xml('/big.xml', capDocument(storm('B-1')));
    const feed = await addFeed({ url: server.url('/big.xml') });
    await firstPoll();
    server.set('/big.xml', { kind: 'stream', chunkBytes: 64 * 1024, chunks: 128 });
    await poll();
    expect((await feedNamed(feed.id))?.last_error).toContain(`more than the ${MiB} bytes a feed may be`);
    // The server offered 8 MiB; it got to write little more than the limit before the service cut.
    await expect.poll(() => server.at('/big.xml').at(-1)?.cutShort, { timeout: 5_000 }).toBe(true);
    const written = server.at('/big.xml').at(-1)?.bytesWritten ?? 0;
    expect(written).toBeGreaterThan(MiB);
    expect(written).toBeLessThan(1.5 * MiB);
    expect((await raisedBy(feed.id)).map((o) => o.active)).toEqual([true]);

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const nowhere = await addFeed({ url: `http://127.0.0.1:${port}/feed.xml` });
    await poll();
    expect((await feedNamed(nowhere.id))?.last_error).toMatch(/could not be read: .*ECONNREFUSED/);
    await removeFeed(feed.id);
    await removeFeed(nowhere.id);
  });

  it('follows the links of an Atom or RSS feed to their alerts; one link failing fails the poll whole', async () => {
    server.xml('/linked/a.xml', capDocument(storm('L-A')));
    server.xml('/linked/b.xml', capDocument(storm('L-B', { infos: [{ severity: 'Extreme' }] })));
    server.xml('/links.xml', atomFeed([{ href: 'linked/a.xml' }, { href: server.url('/linked/b.xml') }]));
    const atom = await addFeed({ url: server.url('/links.xml') });
    server.xml('/items.xml', rssFeed([server.url('/linked/a.xml')]));
    const rss = await addFeed({ url: server.url('/items.xml'), target: { device_tag: 'lobby-2' } });
    await firstPoll();
    expect((await raisedBy(atom.id)).map((o) => o.source?.cap_identifier)).toEqual(['L-A', 'L-B']);
    expect((await raisedBy(rss.id)).map((o) => [o.source?.cap_identifier, o.target])).toEqual([
      ['L-A', { device_tag: 'lobby-2' }],
    ]);

    // b.xml gone: the poll fails rather than taking L-B for withdrawn.
    server.set('/linked/b.xml', { kind: 'status', status: 404 });
    await poll();
    expect((await feedNamed(atom.id))?.last_error).toContain('answered 404');
    expect((await raisedBy(atom.id)).map((o) => o.active)).toEqual([true, true]);
    await removeFeed(atom.id);
    await removeFeed(rss.id);
  });

  it('removed, clears what it raised in the name of who removed it; the audit keeps the feed', async () => {
    server.xml('/removed.xml', capDocument(storm('R-1')));
    const feed = await addFeed({ url: server.url('/removed.xml'), name: 'Removed' });
    await firstPoll();
    const operator = await service.tokenOf('full');
    expect((await service.call('DELETE', `/cap-feeds/${feed.id}`, undefined, operator)).statusCode).toBe(204);
    expect(await raisedBy(feed.id)).toEqual([
      expect.objectContaining({
        created_by: 'cap-feed:Removed',
        cleared_by: 'token "full test token"',
        active: false,
        source: { cap_feed_id: feed.id, cap_identifier: 'R-1' },
      }),
    ]);
    expect(await feedNamed(feed.id)).toBeUndefined();
    await poll();
    expect(server.at('/removed.xml')).toHaveLength(1);
    expect((await service.call('DELETE', `/cap-feeds/${feed.id}`)).statusCode).toBe(404);
  });

  it('records a target gone since as its error, and raises nothing', async () => {
    const doomed = (await ok<{ id: string }>('POST', '/groups', { name: 'Doomed' }, 201)).id;
    server.xml('/doomed.xml', capDocument(storm('D-1')));
    const feed = await addFeed({ url: server.url('/doomed.xml'), target: { group_id: doomed } });
    await ok('DELETE', `/groups/${doomed}`, undefined, 204);
    await firstPoll();
    expect((await feedNamed(feed.id))?.last_error).toContain(`group ${doomed} does not exist`);
    expect(await raisedBy(feed.id)).toEqual([]);
    await removeFeed(feed.id);
  });
});
