import type { HelloAck, RealtimeEvent } from '../shared/events';

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
  event: (event: RealtimeEvent) => void;
}

/** What the agent needs of a socket.io client; it reconnects by itself with capped, jittered backoff. */
export interface RealtimeSocket {
  on<E extends keyof RealtimeSocketEvents>(event: E, listener: RealtimeSocketEvents[E]): void;
  hello(deviceTag: string, lastEventId: number | null): Promise<HelloAck>;
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
  uptime_seconds: number;
  display: { width: number; height: number } | null;
}

export interface SystemInfo {
  /** A stable id of this machine, for the default device tag. */
  machineId(): Promise<string>;
  hostname(): Promise<string>;
  snapshot(): Promise<SystemSnapshot>;
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
}
