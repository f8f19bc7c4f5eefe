import type { AskMethod, TellMethod, Unsubscribe, WallboardBridge } from '../../src/shared/bridge';
import { bridgeClient, type BridgeTransport } from '../../src/shared/bridge-client';
import { describeIssues } from '../../src/shared/issues';
import { agentFrameSchema, type CallFrame } from '../../src/shared/web-bridge-protocol';

const REQUEST_TIMEOUT_MS = 10_000;
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;
/** Reports and logs kept while the agent is away; older ones are dropped first. */
const MAX_QUEUED_FRAMES = 100;

/** The bridge contract over a WebSocket, plus what the page needs to know about the connection. */
export interface WebSocketBridge extends WallboardBridge {
  /** Told true on every connection to the agent and false on every loss or failed attempt. */
  onConnectionChange(listener: (connected: boolean) => void): Unsubscribe;
}

interface PendingRequest {
  frame: CallFrame;
  resolve(answer: unknown): void;
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

/** A call frame of the contract, from a method and the arguments the page gave it. */
function callFrame(method: AskMethod | TellMethod, args: unknown[], requestId?: number): CallFrame {
  // The agent checks every frame against the contract, so a wrong argument is refused there.
  return {
    method,
    ...(requestId === undefined ? {} : { request_id: requestId }),
    ...(args.length > 0 ? { request: args[0] } : {}),
  } as CallFrame;
}

/**
 * The web player's bridge: the same contract as the Electron preload (the same client, checking
 * what enters the page), carried over a WebSocket to the agent's web player server. It reconnects
 * by itself and, after a reconnection, pushes a fresh state, since messages sent while it was
 * away are lost.
 */
export function connectWebSocketBridge(url: string): WebSocketBridge {
  const messageListeners = new Set<(message: unknown) => void>();
  const connectionListeners = new Set<(connected: boolean) => void>();
  const pending = new Map<number, PendingRequest>();
  const queue: CallFrame[] = [];
  let nextRequestId = 1;
  let socket: WebSocket | null = null;
  let failedAttempts = 0;
  let everConnected = false;

  const trySend = (frame: CallFrame): boolean => {
    if (socket?.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(frame));
    return true;
  };

  const enqueue = (frame: CallFrame): void => {
    if (trySend(frame)) return;
    // Only what is on screen now matters to the agent, not what was while it was away.
    if (frame.method === 'reportShowing') {
      const stale = queue.findIndex((queued) => queued.method === 'reportShowing');
      if (stale >= 0) queue.splice(stale, 1);
    }
    queue.push(frame);
    if (queue.length > MAX_QUEUED_FRAMES) queue.shift();
  };

  const warn = (message: string): void => enqueue(callFrame('log', [{ level: 'warn', message }]));

  const receive = (data: unknown): void => {
    let json: unknown;
    try {
      json = JSON.parse(String(data));
    } catch {
      warn('ignored a bridge frame from the agent that is not JSON');
      return;
    }
    const parsed = agentFrameSchema.safeParse(json);
    if (!parsed.success) {
      warn(`ignored an invalid bridge frame from the agent: ${describeIssues(parsed.error)}`);
      return;
    }
    const frame = parsed.data;
    if (frame.kind === 'message') {
      callEach(messageListeners, frame.message);
      return;
    }
    const request = pending.get(frame.request_id);
    if (!request) return; // answered already, on an earlier socket, or given up on
    pending.delete(frame.request_id);
    clearTimeout(request.timer);
    request.resolve(frame.answer);
  };

  const transport: BridgeTransport = {
    ask: (method, args) =>
      new Promise((resolve, reject) => {
        const requestId = nextRequestId++;
        const frame = callFrame(method, args, requestId);
        const timer = setTimeout(() => {
          pending.delete(requestId);
          reject(new Error(`the device agent did not answer within ${REQUEST_TIMEOUT_MS / 1000} s`));
        }, REQUEST_TIMEOUT_MS);
        pending.set(requestId, { frame, resolve, reject, timer });
        trySend(frame);
      }),
    tell: (method, args) => enqueue(callFrame(method, args)),
    subscribe(listener) {
      messageListeners.add(listener);
      return () => void messageListeners.delete(listener);
    },
  };

  // Checked by the client like any state message from the agent.
  const catchUp = (): void => {
    transport.ask('getState', []).then(
      (state) => callEach(messageListeners, { kind: 'state', state }),
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
      for (const request of pending.values()) trySend(request.frame);
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
    ...bridgeClient(transport),
    onConnectionChange(listener) {
      connectionListeners.add(listener);
      return () => void connectionListeners.delete(listener);
    },
  };
}
