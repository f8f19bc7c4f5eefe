import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LEASE_MS, LeaseRepository, RENEW_MS } from './cluster/leases';
import type { Database } from './db/database';
import { startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';

// Leases on both stores, and what GET /health says of a node: ready, draining, or a part down.
let service: TestService;
let db: Database;
const at = (ms: number) => new Date(Date.parse('2026-11-24T08:00:00.000Z') + ms);

beforeAll(async () => {
  service = await startTestService({ clock: new FakeClock('2026-11-24T08:00:00.000Z') });
  db = service.db;
});
afterAll(() => service.close());

describe('leases', () => {
  it('are held by one holder until they run out, renewed by it, and taken by another after', async () => {
    const leases = new LeaseRepository(db);
    expect(await leases.take('test', 'node-a', at(0), LEASE_MS)).toBe(true);
    expect(await leases.take('test', 'node-b', at(RENEW_MS), LEASE_MS)).toBe(false);
    expect(await leases.take('test', 'node-a', at(RENEW_MS), LEASE_MS)).toBe(true);
    // node-a dies after that renewal: node-b gets the lease once it ran out, not before.
    expect(await leases.take('test', 'node-b', at(RENEW_MS + LEASE_MS - 1), LEASE_MS)).toBe(false);
    expect(await leases.take('test', 'node-b', at(RENEW_MS + LEASE_MS + 1), LEASE_MS)).toBe(true);
    expect(await leases.holder('test')).toBe('node-b');
    // A lease let go is taken at once.
    await leases.release('test', 'node-b');
    expect(await leases.take('test', 'node-a', at(RENEW_MS + LEASE_MS + 2), LEASE_MS)).toBe(true);
    // A node that died is replaced within 30 s: the lease's length plus one try.
    expect(LEASE_MS + RENEW_MS).toBeLessThanOrEqual(30_000);
  });
});

describe('GET /health', () => {
  it('says the node is ready, leads, and which checks passed', async () => {
    // On PostgreSQL a node is ready once its realtime adapter listens, a moment after its start.
    const response = await vi.waitFor(async () => {
      const answer = await service.call('GET', '/health', undefined, null);
      expect(answer.statusCode, answer.body).toBe(200);
      return answer;
    });
    expect(response.json()).toEqual({
      status: 'ok',
      database: db.kind,
      node: service.app.wallboard.node.id,
      leading: true,
      checks:
        db.kind === 'postgres'
          ? { writes: 'ok', store: 'ok', realtime: 'ok' }
          : { writes: 'ok', store: 'ok' },
    });
  });

  it('answers 503, saying why, when a part is down', async () => {
    service.app.wallboard.node.addProbe('test part', () => 'it is down for the test');
    const response = await service.call('GET', '/health', undefined, null);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      status: 'unavailable',
      checks: { 'test part': 'it is down for the test' },
    });
    service.app.wallboard.node.addProbe('test part', () => null);
  });

  it('answers 503 draining once the node stops, while it still serves requests', async () => {
    service.app.wallboard.node.drain(new Date());
    const response = await service.call('GET', '/health', undefined, null);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ status: 'draining' });
    expect((await service.call('GET', '/devices')).statusCode).toBe(200);
  });
});
