import type { WebPageRequest } from '../shared/web-content';
import type { Credential } from './config';
import type { MediaService } from './media-urls';
import type { UpdateTarget } from './update-ports';
import type {
  Clock,
  ConnectRealtime,
  Fetch,
  KeyValueStore,
  Logger,
  MediaStore,
  ServiceBrowser,
  SystemInfo,
} from './ports';

/** The edges of the device agent (DeviceAgent): what the app around it gives it. */
export interface AgentDeps {
  fetch: Fetch;
  connectRealtime: ConnectRealtime;
  clock: Clock;
  store: KeyValueStore;
  system: SystemInfo;
  media: MediaStore;
  log: Logger;
  random: () => number;
  appVersion: string;
  /** Where the renderer loads cached media from: `/media/` in the web player, a protocol URL in Electron. */
  mediaBaseUrl: string;
  /**
   * Keeps a credential got by pairing where this client keeps its token (the web player's
   * settings file, Electron's token store). Only a client started without a token pairs.
   */
  saveCredential?: (credential: Credential) => Promise<void>;
  /** Looks for services on the local network (mDNS): only a client started without a service does. */
  browser?: ServiceBrowser;
  /** The system's IANA time zone, where schedules are read when the settings name none; default the runtime's. */
  systemTimeZone?: () => string;
  /**
   * Draws full-screen web pages itself, isolated from the player (Electron's view, web-page-view.ts);
   * `show` answers whether it did. Absent (the web player): the renderer frames them.
   */
  webPages?: { show(request: WebPageRequest): Promise<boolean> };
  /**
   * What the framing check reads pages' headers with, when `fetch` is narrower than web pages
   * allow (Electron's refuses plain http media, but a page may be http): default `fetch`.
   */
  pageFetch?: Fetch;
  /**
   * Where the renderer loads map tiles from, a template with {z}/{x}/{y}: the host's tile cache
   * (`tiles`), fetching from the service with the screen's token. Absent: maps draw no tiles.
   */
  tileUrlTemplate?: string;
  tiles?: { useService(service: MediaService | null): void };
  /**
   * What applies releases on this device, one per kind (update-ports.ts): the shell's updater in
   * Electron, the web player's bundle. A kind without a target keeps what it runs (its offers are ignored).
   */
  updateTargets?: readonly UpdateTarget[];
}
