import os from 'node:os';
import si from 'systeminformation';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../shared/events';
import { stderrLogger } from './log';
import type { Clock, ConnectRealtime, Logger, SystemInfo } from './ports';

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout(callback, ms) {
    const timer = setTimeout(callback, ms);
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
};

/** socket.io-client: reconnects by itself, and re-sends the token on every handshake. */
export const connectSocketIo: ConnectRealtime = (options) => {
  const socket = io(options.url, {
    transports: ['websocket'],
    auth: { token: options.token },
    reconnectionDelay: options.reconnectDelayMs,
    reconnectionDelayMax: options.reconnectDelayMaxMs,
    randomizationFactor: options.randomization,
  }) as Socket<ServerToClientEvents, ClientToServerEvents>;
  return {
    on(event, listener) {
      socket.on(event, listener as never);
    },
    hello: (deviceTag, lastEventId) =>
      socket.timeout(10_000).emitWithAck('hello', { device_tag: deviceTag, last_event_id: lastEventId }),
    close: () => socket.disconnect(),
  };
};

/** The machine, through systeminformation. */
export const nodeSystemInfo: SystemInfo = {
  async machineId() {
    const ids = await si.uuid();
    return ids.os || ids.hardware || os.hostname();
  },
  hostname: async () => os.hostname(),
  async snapshot() {
    const [load, memory, osInfo, graphics] = await Promise.all([
      si.currentLoad(),
      si.mem(),
      si.osInfo(),
      si.graphics(),
    ]);
    const display = graphics.displays.find((d) => d.main) ?? graphics.displays[0];
    return {
      os: `${osInfo.distro} ${osInfo.release} (${osInfo.platform} ${osInfo.arch})`.trim(),
      cpu_load: Math.min(100, Math.max(0, load.currentLoad || 0)),
      memory: { total_bytes: memory.total, used_bytes: memory.active },
      uptime_seconds: Math.round(os.uptime()),
      display:
        display?.currentResX && display.currentResY
          ? { width: display.currentResX, height: display.currentResY }
          : null,
    };
  },
};

/** pino's JSON lines on stderr (log.ts), named after the program: what a systemd journal reads. */
export function consoleLogger(prefix = 'agent'): Logger {
  return stderrLogger(prefix);
}
