import type { HelloAck, RealtimeEvent } from '../shared/events';
import type { MediaService } from './media-urls';

/** Every edge of the agent, injected: real ones in node-edges.ts, fakes in the tests. */

export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
}

/** The standard fetch: node's own, or a fake. */
export type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

export interface RealtimeSocketEvents {
  connect: () => void;
  disconnect: (reason: string) => void;
  connect_error: (error: Error) => void;
  /** The service turned the connection away (its token refused, a rate limit): socket.io does not try again by itself. */
  refused: (refusal: SocketRefusal) => void;
  event: (event: RealtimeEvent) => void;
}

export interface SocketRefusal {
  message: string;
  /** The service's code for it (`rate_limited`), when it gave one. */
  code: string | null;
  retryAfterSeconds: number | null;
}

/** What the agent needs of a socket.io client; it reconnects by itself with capped, jittered backoff. */
export interface RealtimeSocket {
  on<E extends keyof RealtimeSocketEvents>(event: E, listener: RealtimeSocketEvents[E]): void;
  hello(deviceTag: string, lastEventId: number | null): Promise<HelloAck>;
  /** Reads the service's clock (the answer is checked by the caller); absent from tests' sockets that need none. */
  clock?(): Promise<unknown>;
  /** Tries again after a refusal (the automatic reconnection only covers lost connections). */
  reconnect(): void;
  close(): void;
}

export interface RealtimeOptions {
  url: string;
  token: string;
  /** Reconnection delays: the first, the cap, and the share of random jitter (0..1). */
  reconnectDelayMs: number;
  reconnectDelayMaxMs: number;
  randomization: number;
}

export type ConnectRealtime = (options: RealtimeOptions) => RealtimeSocket;

/** Small JSON documents that survive restarts (identity, settings, last good state). */
export interface KeyValueStore {
  read(key: string): Promise<unknown>;
  write(key: string, value: unknown): Promise<void>;
}

export interface SystemSnapshot {
  os: string;
  cpu_load: number;
  memory: { total_bytes: number; used_bytes: number };
  /** Seconds since this process (the app) started, not the machine. */
  uptime_seconds: number;
}

export interface SystemInfo {
  /** A stable id of this machine, for the default device tag. */
  machineId(): Promise<string>;
  hostname(): Promise<string>;
  snapshot(): Promise<SystemSnapshot>;
}

/** A service announced on the local network (DNS-SD `_wallboard._tcp`). */
export interface AnnouncedService {
  /** Stable while the service runs: its DNS-SD instance name. */
  id: string;
  name: string;
  /** Where to reach it, e.g. `http://192.168.1.20:8787`. */
  url: string;
}

/** Browses the local network for services (mDNS); tells every change of what it sees. */
export interface ServiceBrowser {
  start(onChange: (services: AnnouncedService[]) => void): void;
  stop(): void;
}

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Files of the media cache. */
export interface CacheFiles {
  /** Streams `body` into a new temporary file; returns its path and length. */
  writeTemp(
    body: AsyncIterable<Uint8Array>,
    onBytes: (total: number) => void,
  ): Promise<{ path: string; bytes: number }>;
  /** Atomically moves a finished temporary file to its name in the cache. */
  commit(tempPath: string, name: string): Promise<void>;
  remove(pathOrName: string): Promise<void>;
  /** Names of the files in the cache, with their sizes. */
  list(): Promise<{ name: string; bytes: number }[]>;
}

/** What the agent needs of the media cache (media-cache.ts). */
export interface MediaStore {
  load(): Promise<void>;
  /** The cache file name of `url`, downloading it first if needed. */
  ensure(url: string): Promise<string>;
  has(url: string): boolean;
  nameOf(url: string): string;
  usage(): { bytes: number; items: number };
  /** Writes what is only in memory (last use times) before the process ends. */
  flush(): Promise<void>;
  /**
   * The service whose library media (`/media/<id>/content`) it fetches, with the screen's token,
   * sent to that service's origin alone (media-urls.ts); null while there is none.
   */
  useService(service: MediaService | null): void;
}
