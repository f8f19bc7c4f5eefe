import type { BridgeMessage, PlayerState, Unsubscribe, WallboardBridge } from '../../src/shared/bridge';
import { describeIssues } from '../../src/shared/issues';
import { agentFrameSchema, type RendererFrame } from '../../src/shared/web-bridge-protocol';
import { dropBadItems, isRecord } from './player/sanitize-state';

const REQUEST_TIMEOUT_MS = 10_000;
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;
/** Reports and logs kept while the agent is away; older ones are dropped first. */
const MAX_QUEUED_FRAMES = 100;
const MAX_LOG_MESSAGE = 4096;

/** The bridge contract over a WebSocket, plus what the page needs to know about the connection. */
export interface WebSocketBridge extends WallboardBridge {
  /** Told true on every connection to the agent and false on every loss or failed attempt. */
  onConnectionChange(listener: (connected: boolean) => void): Unsubscribe;
}

interface PendingRequest {
  resolve(state: PlayerState): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/** Doubling from 1 s to 30 s, spread over the upper half so a room of screens does not retry in step. */
function retryDelay(attempt: number): number {
  const capped = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.min(attempt, 10));
  return capped / 2 + (capped / 2) * Math.random();
}

function callEach<T>(listeners: Set<(value: T) => void>, value: T): void {
  for (const listener of [...listeners]) {
    try {
      listener(value);
    } catch (error) {
      console.error('a bridge listener failed', error);
    }
  }
}

/**
 * A frame's player state with its bad playlist items taken out (each logged), before the frame
 * is checked: one bad item costs that item, not the whole state, as on Electron's path.
 */
function salvageStates(frame: unknown, warn: (message: string) => void): unknown {
  if (!isRecord(frame)) return frame;
  if (frame.kind === 'state-response') return { ...frame, state: dropBadItems(frame.state, warn) };
  const message = frame.message;
  if (frame.kind === 'message' && isRecord(message) && message.kind === 'state') {
    return { ...frame, message: { ...message, state: dropBadItems(message.state, warn) } };
  }
  return frame;
}

/**
 * The web player's bridge: the same contract as the Electron preload, carried over a WebSocket
 * to the agent's web player server. It reconnects by itself and, after a reconnection, pushes a
 * fresh state, since messages sent while it was away are lost.
 */
export function connectWebSocketBridge(url: string): WebSocketBridge {
  const listeners = new Set<(message: BridgeMessage) => void>();
  const connectionListeners = new Set<(connected: boolean) => void>();
  const pending = new Map<number, PendingRequest>();
  const queue: RendererFrame[] = [];
  let nextRequestId = 1;
  let socket: WebSocket | null = null;
  let failedAttempts = 0;
  let everConnected = false;

  const trySend = (frame: RendererFrame): boolean => {
    if (socket?.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(frame));
    return true;
  };

  const enqueue = (frame: RendererFrame): void => {
    if (trySend(frame)) return;
    // Only what is on screen now matters to the agent, not what was while it was away.
    if (frame.kind === 'report-showing') {
      const stale = queue.findIndex((queued) => queued.kind === 'report-showing');
      if (stale >= 0) queue.splice(stale, 1);
    }
    queue.push(frame);
    if (queue.length > MAX_QUEUED_FRAMES) queue.shift();
  };

  const warn = (message: string): void => {
    enqueue({ kind: 'log', entry: { level: 'warn', message: message.slice(0, MAX_LOG_MESSAGE) } });
  };

  const receive = (data: unknown): void => {
    let json: unknown;
    try {
      json = JSON.parse(String(data));
    } catch {
      warn('ignored a bridge frame from the agent that is not JSON');
      return;
    }
    const parsed = agentFrameSchema.safeParse(salvageStates(json, warn));
    if (!parsed.success) {
      warn(`ignored an invalid bridge frame from the agent: ${describeIssues(parsed.error)}`);
      return;
    }
    const frame = parsed.data;
    if (frame.kind === 'message') {
      callEach(listeners, frame.message);
      return;
    }
    const request = pending.get(frame.request_id);
    if (!request) return; // answered already, on an earlier socket, or given up on
    pending.delete(frame.request_id);
    clearTimeout(request.timer);
    request.resolve(frame.state);
  };

  const getState = (): Promise<PlayerState> =>
    new Promise((resolve, reject) => {
      const requestId = nextRequestId++;
      const timer = setTimeout(() => {
        pending.delete(requestId);
        reject(new Error(`the device agent did not answer within ${REQUEST_TIMEOUT_MS / 1000} s`));
      }, REQUEST_TIMEOUT_MS);
      pending.set(requestId, { resolve, reject, timer });
      trySend({ kind: 'get-state', request_id: requestId });
    });

  const catchUp = (): void => {
    getState().then(
      (state) => callEach(listeners, { kind: 'state', state }),
      (error: unknown) => warn(`could not catch up after reconnecting: ${String(error)}`),
    );
  };

  const connect = (): void => {
    const current = new WebSocket(url);
    socket = current;
    current.addEventListener('open', () => {
      const reconnected = everConnected;
      everConnected = true;
      failedAttempts = 0;
      // Requests sent on a socket that died were lost with it; asking twice is harmless.
      for (const requestId of pending.keys()) trySend({ kind: 'get-state', request_id: requestId });
      for (const frame of queue.splice(0)) trySend(frame);
      callEach(connectionListeners, true);
      if (reconnected) catchUp();
    });
    current.addEventListener('message', (event) => receive(event.data));
    // Browsers follow every error with a close, so close alone drives the retries.
    current.addEventListener('close', () => {
      if (socket !== current) return;
      socket = null;
      callEach(connectionListeners, false);
      setTimeout(connect, retryDelay(failedAttempts++));
    });
  };

  connect();

  return {
    getState,
    onMessage(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    reportShowing(report) {
      enqueue({ kind: 'report-showing', report });
    },
    log(entry) {
      // The agent refuses longer entries whole; a cut one still says what went wrong.
      enqueue({ kind: 'log', entry: { ...entry, message: entry.message.slice(0, MAX_LOG_MESSAGE) } });
    },
    onConnectionChange(listener) {
      connectionListeners.add(listener);
      return () => void connectionListeners.delete(listener);
    },
  };
}
