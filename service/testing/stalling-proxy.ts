import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface StallingProxy {
  /** The proxy's URL, in place of the service's. */
  url: string;
  /** From now on nothing crosses, either way, and no connection is closed: a pulled cable. */
  stall(): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy on loopback to `target` (an http://host:port URL) that forwards bytes both ways
 * until told to stall. A peer behind a stalled proxy is as a screen that lost power: its socket
 * stays open on the service's side and nothing more arrives on it, not even a FIN.
 */
export async function stallingProxy(target: string): Promise<StallingProxy> {
  const { hostname, port } = new URL(target);
  const pairs = new Set<[Socket, Socket]>();
  let stalled = false;
  const forward = (from: Socket, to: Socket) => {
    from.on('data', (chunk: Buffer) => {
      if (!stalled) to.write(chunk);
    });
    from.on('end', () => {
      if (!stalled) to.end();
    });
    from.on('error', () => {
      if (!stalled) to.destroy();
    });
  };
  const server = createServer((down) => {
    const up = connect(Number(port), hostname);
    const pair: [Socket, Socket] = [down, up];
    pairs.add(pair);
    forward(down, up);
    forward(up, down);
    up.on('close', () => pairs.delete(pair));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stall: () => void (stalled = true),
    async close() {
      for (const [down, up] of pairs) {
        down.destroy();
        up.destroy();
      }
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
