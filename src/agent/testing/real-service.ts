import { join } from 'node:path';
import type { createNodeAgent } from '../node-agent';
import type { Clock } from '../ports';
import { fixedSystem, recordingLogger } from './fakes';

/** A call of the service's API as its admin: the parsed answer, or an error saying the refusal. */
export type ServiceApi = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/** The API of a service started on loopback by an integration test, with its admin token. */
export function serviceApi(port: number, token: string): ServiceApi {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
}

/** A board with one value widget (flow `<name>-cpu`) and a playlist showing it for 10 s. */
export async function boardAndPlaylist(
  api: ServiceApi,
  name: string,
): Promise<{ boardId: string; playlistId: string }> {
  const board = await api<{ id: string }>('POST', '/boards/import', {
    name,
    widgets: [
      {
        flow: { tag: `${name}-cpu`, data: { value: 1 } },
        variant: 'value',
        column: 0,
        row: 0,
        width: 8,
        height: 6,
      },
    ],
  });
  const playlist = await api<{ id: string }>('POST', '/playlists', {
    name,
    items: [{ type: 'board', board_id: board.id, duration: 10 }],
  });
  return { boardId: board.id, playlistId: playlist.id };
}

/**
 * What a real node agent of an integration test is made of: the service on loopback, the admin
 * token, its data (and media cache) in `dataDir`, a fixed system and a recording log.
 */
export function nodeAgentOptions(options: {
  port: number;
  token: string;
  tag: string;
  name: string;
  dataDir: string;
  heartbeatSeconds: number;
  clock?: Clock;
  systemTimeZone?: () => string;
}): Parameters<typeof createNodeAgent>[0] {
  const { port, token, tag, name, dataDir, heartbeatSeconds, clock, systemTimeZone } = options;
  return {
    config: {
      server: `http://127.0.0.1:${port}`,
      token,
      tag,
      name,
      heartbeatSeconds,
      cacheDir: join(dataDir, 'media'),
      cacheLimitBytes: 100 * 1024 * 1024,
    },
    dataDir,
    mediaBaseUrl: '/media/',
    appVersion: 'test',
    log: recordingLogger(),
    system: fixedSystem,
    clock,
    ...(systemTimeZone ? { systemTimeZone } : {}),
  };
}
