import { withAccount } from '../accounts/scope';
import { recordSocketGone } from '../actions/devices';
import type { Cancel, ServiceContext } from '../context';

/**
 * socket.io's heartbeat, which the service drives: a ping every interval, and a connection whose
 * pong does not come within the timeout is dropped. A device that loses power sends no FIN, so
 * this is how its socket is seen gone: at most interval + timeout (10 s) after its last pong.
 */
export const PING_INTERVAL_MS = 5_000;
export const PING_TIMEOUT_MS = 5_000;

/**
 * How long a device may be without a socket before it is offline: time for a reconnection (a
 * device retries after 0.5 to 1.5 s, then up to 5 s). With the heartbeat above, a device whose
 * process is killed is seen offline about 5 s later, one that loses power within 15 s.
 */
export const SOCKET_GRACE_MS = 5_000;

/** A device in presence's maps: its account and tag (a tag names a device within one account). */
const deviceKey = (account: string, tag: string) => JSON.stringify([account, tag]);
const ofKey = (key: string) => {
  const [account, tag] = JSON.parse(key) as [string, string];
  return { account, tag };
};

/**
 * Presence that follows the devices' sockets: the tag each socket said hello as, and, when the
 * last socket of a device is gone, a grace timer on the context's clock. A device that has no
 * socket again when it ends, and sent no heartbeat since its socket went, is turned offline
 * (and `device.changed` published). Only heartbeats bring a device online: a hello proves that a
 * token listens under a tag, not that the screen plays (the agent sends a heartbeat at once
 * after each reconnection instead). The sweep of silent devices stays the fallback for devices
 * that never hold a socket.
 */
export class SocketPresence {
  /** The device (deviceKey) each socket said hello as, by socket id. */
  private readonly deviceOf = new Map<string, string>();
  /** The sockets of each device. */
  private readonly socketsOf = new Map<string, Set<string>>();
  private readonly graces = new Map<string, Cancel>();
  private closed = false;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly graceMs = SOCKET_GRACE_MS,
  ) {}

  /** Socket `socketId` said hello as `tag` of `account` (a later hello may name another tag). */
  hello(socketId: string, account: string, tag: string): void {
    if (this.closed) return;
    const device = deviceKey(account, tag);
    const previous = this.deviceOf.get(socketId);
    if (previous === device) return;
    if (previous !== undefined) this.gone(socketId);
    this.deviceOf.set(socketId, device);
    const sockets = this.socketsOf.get(device) ?? new Set();
    this.socketsOf.set(device, sockets.add(socketId));
    this.graces.get(device)?.();
    this.graces.delete(device);
  }

  /** Socket `socketId` disconnected (or said hello as another tag). */
  gone(socketId: string): void {
    const device = this.deviceOf.get(socketId);
    if (device === undefined) return;
    this.deviceOf.delete(socketId);
    const sockets = this.socketsOf.get(device);
    sockets?.delete(socketId);
    if (sockets?.size) return;
    this.socketsOf.delete(device);
    if (this.closed || this.graces.has(device)) return;
    const since = this.ctx.clock.now();
    const cancel = this.ctx.clock.setTimeout(() => {
      this.graces.delete(device);
      const { account, tag } = ofKey(device);
      return withAccount(account, () => recordSocketGone(this.ctx, tag, since)).catch((error: unknown) =>
        this.ctx.log.error(
          { err: error },
          `could not turn device ${tag} of account ${account} offline after its socket went`,
        ),
      );
    }, this.graceMs);
    this.graces.set(device, cancel);
  }

  /**
   * The service is closing: its sockets are cut as a lost transport and the devices reconnect
   * to the next service, so nothing is turned offline for that.
   */
  close(): void {
    this.closed = true;
    for (const cancel of this.graces.values()) cancel();
    this.graces.clear();
  }
}
