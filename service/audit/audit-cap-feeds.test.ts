import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/shared/audit';
import { capDocument } from '../cap/testing/cap-xml';
import { FeedServer } from '../cap/testing/feed-server';
import { CAP_PASS_MS } from '../jobs/cap-feeds';
import { startTestService, type TestService } from '../test-support';
import { FakeClock } from '../testing/fake-clock';

// The service's own work records nothing, but for what puts a message on every screen: an
// override a CAP feed raises is in the trail as that feed's.
const clock = new FakeClock('2026-11-27T09:00:00.000Z');
const server = new FeedServer();
let service: TestService;

beforeAll(async () => {
  await server.start();
  service = await startTestService({ clock });
});
afterAll(async () => {
  await service.close();
  await server.close();
});

it('records an override a CAP feed raises as the feed, and nothing of its polls', async () => {
  server.xml(
    '/storm.xml',
    capDocument({
      identifier: 'S-1',
      infos: [
        { event: 'Storm', severity: 'Severe', headline: 'Storm warning', areas: [{ desc: 'Harbour' }] },
      ],
    }),
  );
  const made = await service.call('POST', '/cap-feeds', {
    name: 'Coast',
    url: server.url('/storm.xml'),
    poll_seconds: 30,
    target: { all: true },
  });
  expect(made.statusCode, made.body).toBe(201);
  const feed = made.json<{ id: string }>();
  await clock.advance(CAP_PASS_MS);
  await clock.advance(30_000);
  const audit = await service.call('GET', '/audit');
  const entries = audit.json<AuditEntry[]>();
  const raised = entries.filter((entry) => entry.resource === 'overrides');
  expect(raised.map((entry) => [entry.action, entry.actor])).toEqual([
    ['create', { kind: 'system', id: feed.id, name: 'CAP feed Coast', address: null }],
  ]);
  // The feed's own polls (its last_polled_at, last_ok_at) change nothing recorded.
  expect(entries.filter((entry) => entry.resource === 'cap_feeds').map((entry) => entry.action)).toEqual([
    'create',
  ]);
});
