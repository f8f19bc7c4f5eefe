import type { AddressInfo } from 'node:net';
import { Bonjour, type Service } from 'bonjour-service';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCommand } from '../cli-options';
import { startTestService, type TestService } from '../test-support';
import { MDNS_SERVICE_TYPE } from './mdns';
import { freeUdpPort } from '../../src/node/testing/free-ports';

let service: TestService | null = null;
let browsing: Bonjour | null = null;
afterEach(async () => {
  await service?.close();
  await new Promise((resolve) => (browsing ? browsing.destroy(resolve) : resolve(undefined)));
  service = null;
  browsing = null;
});

describe('the mDNS announcement', () => {
  it('announces _wallboard._tcp with the port, version and path while it listens, and says goodbye on close', async () => {
    // Every packet stays on loopback, on a port of its own: nothing reaches the real network.
    const mdnsPort = await freeUdpPort();
    service = await startTestService({ mdns: { interface: '127.0.0.1', mdnsPort, name: 'Wallboard test' } });
    await service.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = service.app.server.address() as AddressInfo;

    // multicast-dns's options, which bonjour-service hands on (its type names its own only).
    const onLoopback = { interface: '127.0.0.1', bind: '0.0.0.0', port: mdnsPort };
    browsing = new Bonjour(onLoopback, (error: Error) => {
      throw error;
    });
    const browser = browsing.find({ type: MDNS_SERVICE_TYPE });
    const found = await new Promise<Service>((resolve) => browser.once('up', resolve));
    expect(found).toMatchObject({
      name: 'Wallboard test',
      type: MDNS_SERVICE_TYPE,
      protocol: 'tcp',
      port,
      txt: { version: '5.2.0', path: '/' },
    });
    expect(found.fqdn).toBe('Wallboard test._wallboard._tcp.local');

    const gone = new Promise<Service>((resolve) => browser.once('down', resolve));
    await service.close();
    service = null;
    expect((await gone).name).toBe('Wallboard test');
  });
});

describe('--no-mdns', () => {
  const mdnsOf = (argv: string[]) => {
    const command = parseCommand(argv);
    if (command.kind !== 'serve') throw new Error(`read as ${command.kind}`);
    return command.mdns;
  };

  it('announces by default when the service is reachable from the network, not with --no-mdns', () => {
    expect(mdnsOf(['--host', '0.0.0.0'])).toBe(true);
    expect(mdnsOf(['--host', '192.0.2.10'])).toBe(true);
    expect(mdnsOf(['--host', '0.0.0.0', '--no-mdns'])).toBe(false);
  });

  it('does not announce a service that listens on loopback only, which no screen could reach', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1'])
      expect(mdnsOf(['--host', host])).toBe(false);
    expect(mdnsOf([])).toBe(false);
  });
});
