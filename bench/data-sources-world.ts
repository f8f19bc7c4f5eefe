// The outside world of bench/data-sources and what its screens see: JSON documents on a loopback
// HTTP server (each request's time kept by its URL), changes made to them at known times, and the
// time each change reaches a screen as a `metrics.changed` event.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RealtimeEvent } from '../src/shared/events';

export interface World {
  /** http://127.0.0.1:<port>; document n is at /doc/<n>, any query string ignored. */
  url: string;
  /** The numbers of each document, as it answers them now. */
  values: number[][];
  /** performance.now() of every request, by its URL (path and query string), in order. */
  requests: Map<string, number[]>;
  /** Requests answered so far. */
  total(): number;
  close(): Promise<void>;
}

/**
 * `documents` documents of `numbers` numbers each, `{"values": [...]}`, served from memory: the
 * least an API answering JSON can cost, so that the service's own work is what differs.
 */
export async function serveDocuments(documents: number, numbers: number): Promise<World> {
  const values = Array.from({ length: documents }, (_, doc) =>
    Array.from({ length: numbers }, (_, n) => doc * numbers + n),
  );
  const requests = new Map<string, number[]>();
  let total = 0;
  const server = createServer((request, response) => {
    const at = performance.now();
    const url = request.url ?? '';
    const doc = values[Number(/^\/doc\/(\d+)/.exec(url)?.[1] ?? -1)];
    if (!doc) {
      response.writeHead(404).end();
      return;
    }
    total += 1;
    const list = requests.get(url) ?? [];
    list.push(at);
    requests.set(url, list);
    // Answered in the same turn as the request is noted: a change made in this process lands
    // wholly before or wholly after a request, so the request that carried it is known.
    const body = JSON.stringify({ values: doc });
    response.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    values,
    requests,
    total: () => total,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** One change of one number of one document, and what became of it. */
export interface Change {
  tag: string;
  /** The URL whose requests carry it to the flow (the source's, or the flow's script's). */
  key: string;
  value: number;
  at: number;
  /** Requests of `key` answered before the change: the next one carries it. */
  requestsBefore: number;
  /** When a screen got the flow's event with the new value. */
  seen?: number;
}

/** What a seen change took, in ms: in all, from when its refresh was due, from its fetch. */
export interface ChangeTimes {
  total: number;
  /** From the later of the change and the time its flow's refresh was next due. */
  fromDue: number;
  fromFetch: number;
}

/**
 * The times of a change seen on a screen. A refresh is due `intervalMs` after the request of the
 * one before it (the start of a run is a few ms before its request, so this is as late as the
 * due time can be); a refresh overdue at the change is due at the change.
 */
export function timesOf(change: Change, requests: readonly number[], intervalMs: number): ChangeTimes | null {
  const fetched = requests[change.requestsBefore];
  if (change.seen === undefined || fetched === undefined) return null;
  const before = requests[change.requestsBefore - 1];
  const due = before === undefined ? change.at : Math.max(change.at, before + intervalMs);
  return { total: change.seen - change.at, fromDue: change.seen - due, fromFetch: change.seen - fetched };
}

/** What the screens saw: every `metrics.changed` counted, each flow's first, the changes awaited. */
export class ScreenLog {
  events = 0;
  readonly flowsSeen = new Set<string>();
  private readonly pending = new Map<string, Change>();
  readonly changes: Change[] = [];

  onEvent(event: RealtimeEvent): void {
    if (event.type !== 'metrics.changed') return;
    this.events += 1;
    this.flowsSeen.add(event.flow_tag);
    const change = this.pending.get(event.flow_tag);
    if (change && (event.data as { value?: unknown }).value === change.value) {
      change.seen = performance.now();
      this.pending.delete(event.flow_tag);
    }
  }

  /** Notes a change about to be made; false when the flow still awaits one (it is not made). */
  expect(change: Change): boolean {
    if (this.pending.has(change.tag)) return false;
    this.pending.set(change.tag, change);
    this.changes.push(change);
    return true;
  }

  get waiting(): number {
    return this.pending.size;
  }
}
