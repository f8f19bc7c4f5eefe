import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapFeed } from '../src/shared/cap-feed';
import type { Override } from '../src/shared/override';
import { capDocument } from './cap/testing/cap-xml';
import { FeedServer } from './cap/testing/feed-server';
import { CAP_PASS_MS } from './jobs/cap-feeds';
import { startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';
import { okCalls } from './testing/ok-calls';

// Adding CAP feeds through the API (docs/api/overrides.md, "CAP feeds"): what is refused, who may,
// and whose a feed is. What a feed does once added: cap-feeds.test.ts.

const clock = new FakeClock('2026-11-27T09:00:00.000Z');
const server = new FeedServer();
let service: TestService;

const ok = okCalls(() => service);

const addFeed = (body: Record<string, unknown>) =>
  ok<CapFeed>('POST', '/cap-feeds', { poll_seconds: 30, target: { all: true }, ...body }, 201);
const feedNamed = async (id: string) =>
  (await ok<CapFeed[]>('GET', '/cap-feeds')).find((feed) => feed.id === id);
const raisedBy = async (feed: string) =>
  (await ok<Override[]>('GET', '/overrides/history')).filter(
    (override) => override.source?.cap_feed_id === feed,
  );
const removeFeed = (id: string) => ok('DELETE', `/cap-feeds/${id}`, undefined, 204);

beforeAll(async () => {
  await server.start();
  service = await startTestService({ clock });
  await ok('POST', '/devices', { tag: 'lobby-1' }, 201);
});
afterAll(async () => {
  await service.close();
  await server.close();
});

describe('adding a CAP feed', () => {
  it('refuses bad input with a 400 naming the field, and stores nothing', async () => {
    const before = await ok<CapFeed[]>('GET', '/cap-feeds');
    const url = server.url('/any.xml');
    const cases: [Record<string, unknown>, string][] = [
      [{ target: { all: true } }, 'body.url'],
      [{ url: 'ftp://example.test/feed.xml', target: { all: true } }, 'body.url'],
      [{ url: 'file:///etc/passwd', target: { all: true } }, 'body.url'],
      [{ url: 'https://user:secret@example.test/feed.xml', target: { all: true } }, 'body.url'],
      [{ url }, 'body.target'],
      [{ url, target: { group_id: 'grp_none' } }, 'body.target.group_id'],
      [{ url, target: { device_tag: 'nobody' } }, 'body.target.device_tag'],
      [{ url, target: { all: true }, min_severity: 'Catastrophic' }, 'body.min_severity'],
      [{ url, target: { all: true }, poll_seconds: 5 }, 'body.poll_seconds'],
      [{ url, target: { all: true }, poll_seconds: 3601 }, 'body.poll_seconds'],
      [{ url, target: { all: true }, poll_seconds: 30.5 }, 'body.poll_seconds'],
      [{ url, target: { all: true }, areas: ['Harbour', ' '] }, 'body.areas.1'],
      [
        { url, target: { all: true }, areas: Array.from({ length: 51 }, (_, i) => `Area ${i}`) },
        'body.areas',
      ],
      [{ url, target: { all: true }, name: '' }, 'body.name'],
      [{ url, target: { all: true }, interval: 30 }, 'body.interval'],
    ];
    for (const [body, path] of cases) {
      const response = await service.call('POST', '/cap-feeds', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      const details = (response.json() as { error: { details: { path: string }[] } }).error.details;
      expect(
        details.map((detail) => detail.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect(await ok<CapFeed[]>('GET', '/cap-feeds')).toEqual(before);
  });

  it('takes what raising an override takes; a token bound to a screen sees no feed', async () => {
    const body = { url: server.url('/any.xml'), target: { all: true } };
    const readonly = await service.tokenOf('readonly');
    expect((await service.call('POST', '/cap-feeds', body, readonly)).statusCode).toBe(403);
    const feed = await addFeed(body);
    expect((await service.call('DELETE', `/cap-feeds/${feed.id}`, undefined, readonly)).statusCode).toBe(403);
    expect((await service.call('GET', '/cap-feeds', undefined, readonly)).json()).toContainEqual(
      expect.objectContaining({ id: feed.id }),
    );
    const bound = await ok<{ token: string }>(
      'POST',
      '/account/tokens',
      { scope: 'affiliated', name: 'lobby screen', device_tag: 'lobby-1' },
      201,
    );
    expect((await service.call('GET', '/cap-feeds', undefined, bound.token)).json()).toEqual([]);
    await removeFeed(feed.id);
  });

  it("is an account's own: polled as its account, its overrides reach that account's screens only", async () => {
    const other = await service.addAccount('Other');
    expect((await other.call('POST', '/devices', { tag: 'other-1' })).statusCode).toBe(201);
    server.xml('/other.xml', capDocument({ identifier: 'O-1', infos: [{ headline: 'Storm warning O-1' }] }));
    const added = await other.call('POST', '/cap-feeds', {
      url: server.url('/other.xml'),
      target: { all: true },
      poll_seconds: 30,
    });
    expect(added.statusCode, added.body).toBe(201);
    const feed = added.json<CapFeed>();
    expect(await feedNamed(feed.id)).toBeUndefined();
    expect((await service.call('DELETE', `/cap-feeds/${feed.id}`)).statusCode).toBe(404);
    await clock.advance(CAP_PASS_MS);
    expect((await other.call('GET', '/devices/other-1/settings')).json()).toMatchObject({
      override: { title: 'Storm warning O-1' },
    });
    expect(await raisedBy(feed.id)).toEqual([]);
    expect((await other.call('DELETE', `/cap-feeds/${feed.id}`)).statusCode).toBe(204);
    expect((await other.call('GET', '/devices/other-1/settings')).json()).toMatchObject({ override: null });
  });
});
