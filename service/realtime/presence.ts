import { withAccount } from '../accounts/scope';
import { recordSocketGone } from '../actions/devices';
import type { Cancel, ServiceContext } from '../context';

/** The console shows a screen offline at most this long after it stops, however it stopped. */
export const OFFLINE_WITHIN_MS = 15_000;

/**
 * socket.io's heartbeat, which the service drives: a ping every interval, and a socket whose pong
 * does not come within the timeout is dropped. A screen that loses power (or its cable) sends no
 * FIN and nothing else, so only this ping sees it go: at most interval + timeout after its last
 * pong, and offline TIMEOUT_GRACE_MS later. (TCP keepalive would cost the process nothing, but a
 * proxy in between, HAProxy or nginx, answers it in the screen's place.) Each ping costs the
 * service a write and a read per socket (bench/presence.ts), so the interval is the longest that
 * keeps interval + timeout + TIMEOUT_GRACE_MS under OFFLINE_WITHIN_MS with a second to spare; the
 * timeout leaves a pong a few retransmissions.
 */
export const PING_INTERVAL_MS = 9_000;
export const PING_TIMEOUT_MS = 3_000;

/**
 * How long a device may be without a socket before it is offline: time for a reconnection (a
 * device retries after 0.5 to 1.5 s, then up to 5 s). A killed process is seen at once, its kernel
 * closing the socket, so it is offline this long after.
 */
export const SOCKET_GRACE_MS = 5_000;

/**
 * The grace after a ping timeout: what OFFLINE_WITHIN_MS leaves once the ping has waited, enough
 * for a device that is alive to come back on its first retry (0.5 to 1.5 s after it too sees the
 * socket go, by its own ping check or by our close).
 */
export const TIMEOUT_GRACE_MS = 2_000;

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

  /** Socket `socketId` disconnected, by a ping timeout or otherwise (or said hello as another tag). */
  gone(socketId: string, timedOut = false): void {
    const device = this.deviceOf.get(socketId);
    if (device === undefined) return;
    this.deviceOf.delete(socketId);
    const sockets = this.socketsOf.get(device);
    sockets?.delete(socketId);
    if (sockets?.size) return;
    this.socketsOf.delete(device);
    if (this.closed || this.graces.has(device)) return;
    const since = this.ctx.clock.now();
    const grace = timedOut ? TIMEOUT_GRACE_MS : this.graceMs;
    const cancel = this.ctx.clock.setTimeout(() => {
      this.graces.delete(device);
      const { account, tag } = ofKey(device);
      return withAccount(account, () => recordSocketGone(this.ctx, tag, since)).catch((error: unknown) =>
        this.ctx.log.error(
          { err: error },
          `could not turn device ${tag} of account ${account} offline after its socket went`,
        ),
      );
    }, grace);
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
