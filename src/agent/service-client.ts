import { z } from 'zod';
import { apiErrorSchema } from '../shared/api-error';
import { boardExportSchema, type BoardExport } from '../shared/board-export';
import {
  commandSchema,
  screenshotInfoSchema,
  type Command,
  type CommandResult,
  type ScreenshotInfo,
} from '../shared/command';
import { deviceSchema, type Heartbeat } from '../shared/device';
import { describeIssues } from '../shared/issues';
import { playsReceivedSchema, type PlaysReceived, type PlayUpload } from '../shared/play';
import { playlistSchema, type Playlist } from '../shared/playlist';
import type { UpdateReport } from '../shared/release';
import { screenSettingsSchema, type ScreenSettings } from '../shared/screen-settings';
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

/** A body sent as it is, of its own type (a screenshot's PNG), rather than as JSON. */
class RawBody {
  constructor(
    readonly type: string,
    readonly bytes: Uint8Array,
  ) {}
}

function encodeBody(body: unknown): { type: string; bytes: Uint8Array<ArrayBuffer> | string } | undefined {
  if (body === undefined) return undefined;
  // Copied into an ArrayBuffer of its own: fetch takes no view of a shared one.
  if (body instanceof RawBody) return { type: body.type, bytes: new Uint8Array(body.bytes) };
  return { type: 'application/json', bytes: JSON.stringify(body) };
}

const commandListSchema = z.array(commandSchema);

/**
 * What the agent reads of a device: an older service's answer, without the settings newer ones
 * add (schedule, power, group...), still fits, and the agent plays the device's playlist.
 */
const deviceSeenSchema = deviceSchema.pick({ id: true, tag: true, name: true, playlist_id: true });
export type DeviceSeen = z.infer<typeof deviceSeenSchema>;

/** The service routes the agent uses; every answer is checked against the shared schemas. */
export class ServiceClient {
  constructor(
    private readonly fetch: Fetch,
    private readonly server: string,
    private readonly token: string,
    /** Hears the status of every answer: how the agent learns that its token is refused (401) or taken again. */
    private readonly onStatus: (status: number) => void = () => undefined,
  ) {}

  getDevice(tag: string): Promise<DeviceSeen> {
    return this.call('GET', `/devices/${encodeURIComponent(tag)}`, deviceSeenSchema);
  }

  createDevice(input: { tag: string; name: string; description: string }): Promise<DeviceSeen> {
    return this.call('POST', '/devices', deviceSeenSchema, input);
  }

  /** What the device plays and how, resolved (its own settings, its group's); 404 from an older service. */
  getSettings(tag: string): Promise<ScreenSettings> {
    return this.call('GET', `/devices/${encodeURIComponent(tag)}/settings`, screenSettingsSchema);
  }

  getPlaylist(id: string): Promise<Playlist> {
    return this.call('GET', `/playlists/${encodeURIComponent(id)}`, playlistSchema);
  }

  exportBoard(id: string): Promise<BoardExport> {
    return this.call('GET', `/boards/${encodeURIComponent(id)}/export`, boardExportSchema);
  }

  heartbeat(tag: string, heartbeat: Heartbeat): Promise<DeviceSeen> {
    return this.call('POST', `/devices/${encodeURIComponent(tag)}/heartbeat`, deviceSeenSchema, heartbeat);
  }

  goingOffline(tag: string): Promise<DeviceSeen> {
    return this.call('POST', `/devices/${encodeURIComponent(tag)}/offline`, deviceSeenSchema, {});
  }

  /** The commands sent while the device was away (docs/api/commands.md). */
  queuedCommands(tag: string): Promise<Command[]> {
    return this.call('GET', `/devices/${encodeURIComponent(tag)}/commands?status=queued`, commandListSchema);
  }

  reportCommand(tag: string, id: string, result: CommandResult): Promise<Command> {
    const path = `/devices/${encodeURIComponent(tag)}/commands/${encodeURIComponent(id)}/result`;
    return this.call('POST', path, commandSchema, result);
  }

  putScreenshot(tag: string, png: Uint8Array): Promise<ScreenshotInfo> {
    const path = `/devices/${encodeURIComponent(tag)}/screenshot`;
    return this.call('PUT', path, screenshotInfoSchema, new RawBody('image/png', png));
  }

  postPlays(tag: string, plays: readonly PlayUpload[]): Promise<PlaysReceived> {
    return this.call('POST', `/devices/${encodeURIComponent(tag)}/plays`, playsReceivedSchema, plays);
  }

  /** What an update came to on this device (docs/updates.md); the answer is not read. */
  async reportUpdate(tag: string, report: UpdateReport): Promise<void> {
    await this.call('POST', `/devices/${encodeURIComponent(tag)}/update-reports`, z.unknown(), report);
  }

  private async call<S extends z.ZodType>(
    method: string,
    path: string,
    schema: S,
    body?: unknown,
  ): Promise<z.infer<S>> {
    const payload = encodeBody(body);
    let response: Response;
    try {
      response = await this.fetch(`${this.server}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          ...(payload ? { 'content-type': payload.type } : {}),
        },
        body: payload?.bytes,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new ServiceError(
        0,
        `${method} ${path}: the service cannot be reached (${(error as Error).message})`,
      );
    }
    this.onStatus(response.status);
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
