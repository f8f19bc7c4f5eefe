import type { z } from 'zod';
import { apiErrorSchema } from '../shared/api-error';
import { boardExportSchema, type BoardExport } from '../shared/board-export';
import { deviceSchema, type Device, type Heartbeat } from '../shared/device';
import { describeIssues } from '../shared/issues';
import { playlistSchema, type Playlist } from '../shared/playlist';
import type { Fetch } from './ports';

/** A failed call: `status` is 0 when the service could not be reached at all. */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const REQUEST_TIMEOUT_MS = 15_000;

/** The service routes the agent uses; every answer is checked against the shared schemas. */
export class ServiceClient {
  constructor(
    private readonly fetch: Fetch,
    private readonly server: string,
    private readonly token: string,
  ) {}

  getDevice(tag: string): Promise<Device> {
    return this.call('GET', `/devices/${encodeURIComponent(tag)}`, deviceSchema);
  }

  createDevice(input: { tag: string; name: string; description: string }): Promise<Device> {
    return this.call('POST', '/devices', deviceSchema, input);
  }

  getPlaylist(id: string): Promise<Playlist> {
    return this.call('GET', `/playlists/${encodeURIComponent(id)}`, playlistSchema);
  }

  exportBoard(id: string): Promise<BoardExport> {
    return this.call('GET', `/boards/${encodeURIComponent(id)}/export`, boardExportSchema);
  }

  heartbeat(tag: string, heartbeat: Heartbeat): Promise<Device> {
    return this.call('POST', `/devices/${encodeURIComponent(tag)}/heartbeat`, deviceSchema, heartbeat);
  }

  goingOffline(tag: string): Promise<Device> {
    return this.call('POST', `/devices/${encodeURIComponent(tag)}/offline`, deviceSchema, {});
  }

  private async call<S extends z.ZodType>(
    method: string,
    path: string,
    schema: S,
    body?: unknown,
  ): Promise<z.infer<S>> {
    let response: Response;
    try {
      response = await this.fetch(`${this.server}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new ServiceError(
        0,
        `${method} ${path}: the service cannot be reached (${(error as Error).message})`,
      );
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      throw new ServiceError(
        response.status,
        `${method} ${path}: the answer is not JSON (${response.status})`,
      );
    }
    if (!response.ok) {
      const error = apiErrorSchema.safeParse(json);
      const reason = error.success ? error.data.error.message : text.slice(0, 200);
      throw new ServiceError(response.status, `${method} ${path}: ${response.status} ${reason}`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new ServiceError(
        response.status,
        `${method} ${path}: the answer does not fit the contract: ${describeIssues(parsed.error)}`,
      );
    }
    return parsed.data;
  }
}
