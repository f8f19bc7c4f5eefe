import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { describeIssues } from '../../src/shared/issues';
import { BUS_MESSAGES, isBusTopic, type BusMessage, type BusTopic } from './bus-messages';

/** Why a part of this node cannot take traffic now, or null when it can. */
export type Probe = () => Promise<string | null> | string | null;

/** What `GET /health` says of this node: ready, or each part that is not and why. */
export interface Readiness {
  ready: boolean;
  draining: boolean;
  /** Each probe's verdict: "ok", or why not. */
  checks: Record<string, string>;
}

/** Why this node's writes fail (a full disk, a read-only store), since when, and when it last tried one. */
export interface WriteRefusal {
  why: string;
  since: Date;
  triedAt: Date;
}

/**
 * Messages between the service's nodes (a token revoked, a script changed), each of a topic of
 * BUS_MESSAGES: each is delivered to every node, this one included. One node alone delivers them
 * to itself; the realtime hub carries them across nodes once it is attached (realtime/cluster.ts).
 */
export interface ClusterBus {
  publish<T extends BusTopic>(topic: T, payload: BusMessage<T>): void;
  subscribe<T extends BusTopic>(topic: T, handler: (payload: BusMessage<T>) => void): () => void;
}

type Handler = (payload: unknown) => void;

/** A bus of one node: what is published is heard here, at once. */
export class LocalBus implements ClusterBus {
  private readonly handlers = new Map<BusTopic, Set<Handler>>();
  /** Where a publication goes besides this node (set by the hub); null: nowhere. */
  private remote: ((topic: BusTopic, payload: unknown) => void) | null = null;

  publish<T extends BusTopic>(topic: T, payload: BusMessage<T>): void {
    this.deliver(topic, payload);
    this.remote?.(topic, payload);
  }

  subscribe<T extends BusTopic>(topic: T, handler: (payload: BusMessage<T>) => void): () => void {
    const handlers = this.handlers.get(topic) ?? new Set();
    this.handlers.set(topic, handlers.add(handler as Handler));
    return () => handlers.delete(handler as Handler);
  }

  /**
   * A message of another node, as it came over the wire: parsed against its topic's schema, then
   * delivered. Why it was refused (an unknown topic, a payload that does not fit), or null.
   */
  heard(topic: string, payload: unknown): string | null {
    if (!isBusTopic(topic)) return `a message of the unknown topic "${topic}" between the nodes was dropped`;
    const parsed = BUS_MESSAGES[topic].safeParse(payload);
    if (!parsed.success) {
      return `a "${topic}" message between the nodes was dropped: ${describeIssues(parsed.error)}`;
    }
    this.deliver(topic, parsed.data);
    return null;
  }

  /** Publications go to the other nodes through `send` as well. */
  carry(send: ((topic: BusTopic, payload: unknown) => void) | null): void {
    this.remote = send;
  }

  private deliver(topic: BusTopic, payload: unknown): void {
    for (const handler of this.handlers.get(topic) ?? []) handler(payload);
  }
}

/**
 * This service node among others on one store: its id (the holder of the leases it takes), the
 * parts that must be up for it to take traffic, whether it is draining, and the bus to the
 * other nodes.
 */
export class NodeState {
  /** Unique per process: the host, the process and a random part (a restarted node is another). */
  readonly id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  readonly bus = new LocalBus();
  private readonly probes = new Map<string, Probe>();
  private drainingSince: Date | null = null;
  private refusal: WriteRefusal | null = null;

  /** A part this node needs to take traffic (the store, the realtime adapter). */
  addProbe(name: string, probe: Probe): void {
    this.probes.set(name, probe);
  }

  /** The node is stopping: the load balancer is told so, and it finishes what it has. */
  drain(at: Date): void {
    this.drainingSince ??= at;
  }

  get draining(): boolean {
    return this.drainingSince !== null;
  }

  /** A write failed at `at` for a reason every write shares (a full disk); readiness says so until one succeeds. */
  writesRefused(why: string, at: Date): void {
    this.refusal = { why, since: this.refusal?.since ?? at, triedAt: at };
  }

  /** A write succeeded: the node takes writes again. */
  writesWork(): void {
    this.refusal = null;
  }

  /** Why writes fail here, or null while they succeed. */
  get writeRefusal(): WriteRefusal | null {
    return this.refusal;
  }

  async readiness(): Promise<Readiness> {
    const checks: Record<string, string> = {};
    await Promise.all(
      [...this.probes].map(async ([name, probe]) => {
        try {
          checks[name] = (await probe()) ?? 'ok';
        } catch (error) {
          checks[name] = error instanceof Error ? error.message : String(error);
        }
      }),
    );
    const up = Object.values(checks).every((verdict) => verdict === 'ok');
    return { ready: up && !this.draining, draining: this.draining, checks };
  }
}
