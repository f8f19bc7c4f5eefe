// The service's stop path, shared by server.ts and the launcher's embedded service. Signals are
// src/node/close-on-signals.ts's business.
import type { FastifyInstance } from 'fastify';
import type { Database } from './db/database';

/**
 * The service's stop, in order: the app (no new requests, every device socket closed, scripts
 * stopped; app.ts bounds how long requests under way may hold it), then the store, which
 * releases the data folder's lock even when the app's close failed.
 */
export async function stopService(app: FastifyInstance, db: Database): Promise<void> {
  try {
    await app.close();
  } finally {
    await db.close();
  }
}
