import { afterEach, describe, expect, it } from 'vitest';
import { sampleHeartbeat } from '../src/shared/testing/device-fixtures';
import { parseCommand } from './cli-options';
import { ADMIN_SECRET, startTestService, type TestService } from './test-support';

// Behind a load balancer (--trust-proxy), a client's address is the one the proxy forwards.
let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function seenFrom(trustProxy: string[] | null): Promise<string | null> {
  service = await startTestService({ config: { trustProxy } });
  await service.call('POST', '/devices', { tag: 'lobby' });
  const beat = await service.app.inject({
    method: 'POST',
    url: '/devices/lobby/heartbeat',
    headers: { authorization: `Bearer ${ADMIN_SECRET}`, 'x-forwarded-for': '203.0.113.7' },
    payload: sampleHeartbeat('board'),
  });
  expect(beat.statusCode).toBeLessThan(300);
  return (await service.call('GET', '/devices/lobby')).json<{ last_seen_ip: string | null }>().last_seen_ip;
}

describe('--trust-proxy', () => {
  it("takes the forwarded address from a trusted proxy, and the connection's otherwise", async () => {
    expect(await seenFrom(['loopback'])).toBe('203.0.113.7');
    await service?.close();
    service = undefined;
    expect(await seenFrom(null)).toBe('127.0.0.1');
  });

  it('reads a list, and refuses what is no address', () => {
    const command = parseCommand(['--trust-proxy', '10.0.0.0/8, loopback']);
    expect(command.kind === 'serve' && command.config.trustProxy).toEqual(['10.0.0.0/8', 'loopback']);
    expect(() => parseCommand(['--trust-proxy', 'the balancer'])).toThrow(/--trust-proxy: /);
  });
});
