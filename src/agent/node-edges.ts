import type { EventEmitter } from 'node:events';
import { isIPv4 } from 'node:net';
import os from 'node:os';
import { Bonjour, type Service } from 'bonjour-service';
import si from 'systeminformation';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../shared/events';
import { stderrLogger } from './log';
import type {
  AnnouncedService,
  Clock,
  ConnectRealtime,
  Logger,
  RealtimeSocketEvents,
  ServiceBrowser,
  SocketRefusal,
  SystemInfo,
} from './ports';

/** The DNS-SD type services announce themselves as: `_wallboard._tcp`. */
const MDNS_TYPE = 'wallboard';

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout(callback, ms) {
    const timer = setTimeout(callback, ms);
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
};

/** What the service's socket middleware hands a refused client beside the message (service/realtime/hub.ts). */
function refusalOf(error: Error): SocketRefusal {
  const data = (error as Error & { data?: { code?: unknown; retry_after?: unknown } }).data;
  return {
    message: error.message,
    code: typeof data?.code === 'string' ? data.code : null,
    retryAfterSeconds: typeof data?.retry_after === 'number' ? data.retry_after : null,
  };
}

/** socket.io-client: reconnects by itself, and re-sends the token on every handshake. */
export const connectSocketIo: ConnectRealtime = (options) => {
  const socket = io(options.url, {
    transports: ['websocket'],
    auth: { token: options.token },
    reconnectionDelay: options.reconnectDelayMs,
    reconnectionDelayMax: options.reconnectDelayMaxMs,
    randomizationFactor: options.randomization,
  }) as Socket<ServerToClientEvents, ClientToServerEvents>;
  const failed = new Set<RealtimeSocketEvents['connect_error']>();
  const refused = new Set<RealtimeSocketEvents['refused']>();
  socket.on('connect_error', (error) => {
    // A connection the service's middleware refused is not tried again (socket.active is then
    // false); a transport that failed is, by socket.io itself.
    if (socket.active) for (const listener of failed) listener(error);
    else for (const listener of refused) listener(refusalOf(error));
  });
  return {
    on(event, listener) {
      if (event === 'connect_error') failed.add(listener as RealtimeSocketEvents['connect_error']);
      else if (event === 'refused') refused.add(listener as RealtimeSocketEvents['refused']);
      else socket.on(event, listener as never);
    },
    hello: (deviceTag, lastEventId) =>
      socket.timeout(10_000).emitWithAck('hello', { device_tag: deviceTag, last_event_id: lastEventId }),
    clock: () => socket.timeout(5_000).emitWithAck('clock'),
    reconnect: () => void socket.connect(),
    close: () => socket.disconnect(),
  };
};

/** Where multicast DNS goes; tests keep it on this machine (`{interface: '127.0.0.1', port: <free>}`). */
export interface MdnsOptions {
  interface?: string;
  port?: number;
}

/**
 * A DNS-SD answer as a service to pair with. The address is the one its answer came from, which
 * reached this machine (the A records may list the service's other networks too); an IPv6 one
 * (link-local, it would need its zone) gives way to an IPv4 address of the records.
 */
function announced(service: Service): AnnouncedService | null {
  const referer = service.referer;
  const address =
    referer?.family === 'IPv4'
      ? referer.address
      : (service.addresses ?? []).find((candidate) => isIPv4(candidate));
  if (!address || !service.port) return null;
  const txt = service.txt as { path?: unknown } | undefined;
  const path = typeof txt?.path === 'string' ? txt.path.replace(/\/+$/, '') : '';
  return {
    id: service.fqdn || service.name,
    name: service.name,
    url: `http://${address}:${service.port}${path}`,
  };
}

/**
 * Browses for `_wallboard._tcp` with bonjour-service (multicast-dns), the library the service
 * announces itself with (service/jobs/mdns.ts). A network without multicast finds nothing, which
 * the screen shows as still looking.
 */
export function bonjourBrowser(log: Logger, options: MdnsOptions = {}): ServiceBrowser {
  let bonjour: Bonjour | null = null;
  let timer: NodeJS.Timeout | null = null;
  return {
    start(onChange) {
      const fail = (error: unknown) => log.warn(`looking for services on the network: ${String(error)}`);
      bonjour = new Bonjour(
        {
          ...(options.interface ? { interface: options.interface, bind: '0.0.0.0' } : {}),
          ...(options.port ? { port: options.port } : {}),
        },
        fail,
      );
      // The socket's own errors reach no callback of bonjour-service; unheard, one would end the process.
      (bonjour as unknown as { server: { mdns: EventEmitter } }).server.mdns.on('error', fail);
      const browser = bonjour.find({ type: MDNS_TYPE, protocol: 'tcp' });
      const tell = () => onChange(browser.services.flatMap((service) => announced(service) ?? []));
      for (const event of ['up', 'down', 'srv-update', 'txt-update'] as const) browser.on(event, tell);
      // A query or its answer may be lost (UDP): asked again from 2 s, doubling to a minute, as
      // RFC 6762 has queriers do; services whose records ran out meanwhile are dropped.
      const ask = (delayMs: number) => {
        timer = setTimeout(() => {
          browser.expire();
          browser.update();
          ask(Math.min(delayMs * 2, 60_000));
        }, delayMs);
        timer.unref();
      };
      ask(2000);
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      bonjour?.destroy();
      bonjour = null;
    },
  };
}

/** The machine, through systeminformation. */
export const nodeSystemInfo: SystemInfo = {
  async machineId() {
    const ids = await si.uuid();
    return ids.os || ids.hardware || os.hostname();
  },
  hostname: async () => os.hostname(),
  async snapshot() {
    const [load, memory, osInfo] = await Promise.all([si.currentLoad(), si.mem(), si.osInfo()]);
    // The display is the renderer's own size (screen-status.ts), not what the machine reports.
    return {
      os: `${osInfo.distro} ${osInfo.release} (${osInfo.platform} ${osInfo.arch})`.trim(),
      cpu_load: Math.min(100, Math.max(0, load.currentLoad || 0)),
      memory: { total_bytes: memory.total, used_bytes: memory.active },
      // The app's uptime: a screen whose app restarts every hour on a machine up for weeks shows it.
      uptime_seconds: Math.round(process.uptime()),
    };
  },
};

/** pino's JSON lines on stderr (log.ts), named after the program: what a systemd journal reads. */
export function consoleLogger(prefix = 'agent'): Logger {
  return stderrLogger(prefix);
}
