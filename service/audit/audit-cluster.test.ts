import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/shared/audit';
import { TEST_POSTGRES_URL } from '../test-support';
import { call, NodesInProcess, type Node } from '../testing/nodes-in-process';

// Two nodes on one PostgreSQL: each node's pool carries its own requests' actors to the triggers,
// and the trail of either node holds the changes made through both.
const fleet = new NodesInProcess({});
let a: Node;
let b: Node;

describe.skipIf(!TEST_POSTGRES_URL)('the audit trail across two nodes (needs npm run test:postgres)', () => {
  beforeAll(async () => {
    [a, b] = await fleet.twoWithLobby();
  });
  afterAll(() => fleet.close());

  it('holds the changes made through either node, each as its actor, and nothing of fed data', async () => {
    const onA = (await call(a, 'POST', '/boards', { name: 'Made on A' })).json<{ id: string }>();
    const onB = (await call(b, 'POST', '/boards', { name: 'Made on B' })).json<{ id: string }>();
    expect((await call(b, 'POST', '/flows', { tag: 'fed', variant: 'text' })).statusCode).toBe(201);
    const count = async () => (await call(a, 'GET', '/audit?limit=10000')).json<AuditEntry[]>().length;
    const before = await count();
    // Unaudited writes on connections that just carried an actor: the setting is cleared.
    for (const node of [a, b, a, b]) {
      expect((await call(node, 'PUT', '/flows/fed/metrics', { text: 'x' })).statusCode).toBe(200);
    }
    expect(await count()).toBe(before);

    for (const node of [a, b]) {
      const boards = (await call(node, 'GET', '/audit?resource=boards')).json<AuditEntry[]>();
      const ours = boards.filter((entry) => [onA.id, onB.id].includes(entry.resource_id ?? ''));
      expect(ours.map((entry) => [entry.resource_id, entry.action, entry.actor.name]).sort()).toEqual(
        [
          [onA.id, 'create', 'test admin'],
          [onB.id, 'create', 'test admin'],
        ].sort(),
      );
    }
  });
});
