import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneStore, RETENTION_INTERVAL_MS } from './jobs/retention';
import { startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const count = async (table: 'events' | 'notifications', target: TestService = service) =>
  Number(
    (
      await target.db.kysely
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('what the store keeps', () => {
  it('prunes events by count and by size, and notifications by count and by age', async () => {
    const { config } = service.app.wallboard;
    const flow = await service.call('POST', '/flows', { tag: 'retained', variant: 'text' });
    expect(flow.statusCode).toBe(201);
    for (let i = 0; i < 12; i += 1) {
      const written = await service.call('PUT', '/flows/retained/metrics', {
        text: `${i} ${'x'.repeat(9000)}`,
      });
      expect(written.statusCode).toBe(200);
    }
    for (let i = 0; i < 6; i += 1) {
      const posted = await service.call('POST', '/flows/retained/notifications', {
        title: `n${i}`,
        message: 'm',
      });
      expect(posted.statusCode, posted.body).toBe(201);
    }
    const events = await count('events');
    expect(events).toBeGreaterThan(12);

    Object.assign(config, { eventRetention: 100, eventRetentionBytes: 50_000, notificationRetention: 4 });
    await pruneStore(service.app.wallboard);
    // Each metric event carries its 9 KB of data: the newest that fit in 50,000 bytes stay.
    const left = await service.db.kysely
      .selectFrom('events')
      .select(['type', 'payload'])
      .orderBy('id')
      .execute();
    const bytes = left.reduce((sum, event) => sum + Buffer.byteLength(event.payload), 0);
    expect(bytes).toBeLessThanOrEqual(50_000);
    expect(bytes).toBeGreaterThan(50_000 - 9_200);
    expect(left.filter((event) => event.type === 'metrics.changed')).toHaveLength(5);
    expect(left.filter((event) => event.type === 'notification.created')).toHaveLength(6);
    expect(
      (await service.call('GET', '/notifications'))
        .json()
        .map((n: { title: string }) => n.title)
        .sort(),
    ).toEqual(['n2', 'n3', 'n4', 'n5']);

    // Notifications older than the days kept go, whatever their number.
    Object.assign(config, { notificationRetention: 10_000, notificationRetentionDays: 1 });
    const later = new FakeClock(new Date(Date.now() + 2 * 86_400_000));
    await pruneStore({ ...service.app.wallboard, clock: later });
    expect(await count('notifications')).toBe(0);
  });

  it('is pruned once a minute by a job of the app, which stops with it', async () => {
    const clock = new FakeClock();
    const own = await startTestService({ clock, config: { notificationRetention: 2 } });
    try {
      expect((await own.call('POST', '/flows', { tag: 'pruned', variant: 'text' })).statusCode).toBe(201);
      for (let i = 0; i < 5; i += 1) {
        const posted = await own.call('POST', '/flows/pruned/notifications', {
          title: `n${i}`,
          message: 'm',
        });
        expect(posted.statusCode, posted.body).toBe(201);
      }
      await clock.advance(RETENTION_INTERVAL_MS - 1);
      expect(await count('notifications', own)).toBe(5);
      // The clock waits for the pass it starts.
      await clock.advance(1);
      expect(await count('notifications', own)).toBe(2);
    } finally {
      await own.close();
    }
    expect(clock.pending).toBe(0);
  });
});
