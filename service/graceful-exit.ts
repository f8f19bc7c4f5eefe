// The service's stop path, shared by server.ts and the launcher's embedded service. Signals are
// src/node/close-on-signals.ts's business.
import type { App } from './app';
import type { Database } from './db/database';

/**
 * The service's stop, in order: with `drainMs`, first the drain (GET /health answers 503, the
 * jobs done once across the nodes pass to another node, and requests and sockets are still
 * served while a load balancer notices); then the app (no new requests, every device socket
 * closed, scripts stopped; app.ts bounds how long requests under way may hold it), then the
 * store, which releases the data folder's lock even when the app's close failed.
 */
export async function stopService(app: App, db: Database, drainMs = 0): Promise<void> {
  try {
    const { node, jobs, clock } = app.wallboard;
    node.drain(clock.now());
    if (drainMs > 0) {
      await jobs.leadership.stop();
      await new Promise((resolve) => setTimeout(resolve, drainMs));
    }
    await app.close();
  } finally {
    await db.close();
  }
}
