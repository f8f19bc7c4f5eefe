import { boardCreateSchema } from '../../shared/board';
import type { BoardExport } from '../../shared/board-export';
import type { Device } from '../../shared/device';
import type { Playlist } from '../../shared/playlist';
import type { ScreenSettings } from '../../shared/screen-settings';
import type { Fetch } from '../ports';
import { WEB_OPTIONS_FALLBACK } from '../../shared/web-content';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const notFound = () => json(404, { error: { code: 'not_found', message: 'not found', details: [] } });

/** Just enough of the service for the agent's unit tests, behind a fetch function. */
export class FakeService {
  readonly devices = new Map<string, Device>();
  readonly playlists = new Map<string, Playlist>();
  readonly exports = new Map<string, unknown>();
  /** Resolved settings by device tag; a device without is given its own playlist and nothing else. */
  readonly settings = new Map<string, ScreenSettings>();
  /** False: an older service, without `GET /devices/:tag/settings` (404). */
  settingsRoute = true;
  readonly calls: { method: string; path: string; at: number; body: unknown }[] = [];
  /** Unreachable: every call fails as a network error. */
  down = false;
  /** Answer every call with this status instead. */
  failWith: number | null = null;

  constructor(private readonly now: () => number) {}

  readonly fetch: Fetch = async (url, init) => {
    const method = init?.method ?? 'GET';
    const path = new URL(url).pathname;
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    this.calls.push({ method, path, at: this.now(), body });
    if (this.down) throw new TypeError('fetch failed');
    if (this.failWith) return json(this.failWith, { error: { code: 'x', message: 'failing', details: [] } });
    const [, kind, id, sub] = path.split('/').map(decodeURIComponent);
    if (kind === 'devices' && method === 'POST' && !id)
      return this.createDevice(body as { tag: string; name: string });
    if (kind === 'devices' && id) {
      const device = this.devices.get(id);
      if (!device) return notFound();
      if (sub === 'heartbeat') return json(200, { ...device, online: true });
      if (sub === 'offline') return json(200, { ...device, online: false });
      // Nothing waits for the device, and every play is taken (commands and plays have fakes of their own).
      if (sub === 'commands') return json(200, []);
      if (sub === 'plays')
        return json(200, { received: (body as unknown[]).length, stored: (body as unknown[]).length });
      if (sub === 'settings')
        return this.settingsRoute ? json(200, this.settings.get(id) ?? ownSettings(device)) : notFound();
      return json(200, device);
    }
    if (kind === 'playlists' && id)
      return this.playlists.has(id) ? json(200, this.playlists.get(id)) : notFound();
    if (kind === 'boards' && id && sub === 'export')
      return this.exports.has(id) ? json(200, this.exports.get(id)) : notFound();
    return notFound();
  };

  addDevice(tag: string, playlistId: string | null = null): Device {
    const device: Device = {
      id: `dev_${tag}`,
      tag,
      playlist_id: playlistId,
      schedule: null,
      power: null,
      rotation: null,
      time_zone: null,
      group_id: null,
      name: tag,
      description: '',
      online: false,
      last_seen_date: null,
      last_seen_ip: null,
    };
    this.devices.set(tag, device);
    return device;
  }

  count(method: string, pathPrefix: string): number {
    return this.calls.filter((c) => c.method === method && c.path.startsWith(pathPrefix)).length;
  }

  private createDevice(input: { tag: string; name: string }): Response {
    if (this.devices.has(input.tag))
      return json(409, { error: { code: 'conflict', message: 'taken', details: [] } });
    const device = { ...this.addDevice(input.tag), name: input.name };
    this.devices.set(input.tag, device);
    return json(201, device);
  }
}

/** The settings of a device with no group and nothing set but its playlist. */
export function ownSettings(device: Pick<Device, 'playlist_id'>): ScreenSettings {
  return {
    playlist_id: device.playlist_id,
    schedule: null,
    power: null,
    rotation: 0,
    time_zone: null,
    group_id: null,
    sources: {
      playlist_id: device.playlist_id ? 'screen' : 'default',
      schedule: 'default',
      power: 'default',
      rotation: 'default',
      time_zone: 'default',
    },
    playlist_ids: device.playlist_id ? [device.playlist_id] : [],
    web: WEB_OPTIONS_FALLBACK,
    override: null,
    release: { shell: null, web: null },
    sync: null,
  };
}

export function sampleBoard(name: string, flowTag: string, value: number): BoardExport {
  return {
    ...boardCreateSchema.parse({ name, channel_ids: ['ch_default'] }),
    widgets: [
      {
        flow: { tag: flowTag, data: { value }, errored: false },
        variant: 'value',
        column: 0,
        row: 0,
        width: 8,
        height: 6,
        in_board_index: 0,
        background: 'default',
      },
    ],
  };
}

export function samplePlaylist(id: string, boardIds: string[]): Playlist {
  return {
    id,
    name: id,
    items: boardIds.map((board_id) => ({ type: 'board' as const, board_id, channel_id: null, duration: 10 })),
    updated_at: '2026-11-21T07:00:00.000Z',
  };
}
