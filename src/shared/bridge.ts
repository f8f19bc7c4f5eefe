import { z } from 'zod';
import { tagSchema, timestampSchema } from './common';
import { boardExportSchema } from './board-export';
import { displaySchema } from './device';
import { rotationSchema } from './schedule';
import { SCREENSHOT_BASE64_MAX } from './command';
import { metricsDataSchema } from './metrics';
import { notificationSchema } from './notification';
import { overrideShownSchema } from './override';
import { playReportSchema } from './play';
import { pairingCreatedSchema } from './pairing';
import { playlistSchema } from './playlist';
import { screenSettingsSchema } from './screen-settings';
import { serviceTimeSchema } from './sync';
import {
  framingRequestSchema,
  framingSchema,
  playerWebSchema,
  webPageRequestSchema,
  webPageShownSchema,
} from './web-content';

/** A service found on the network (mDNS), as the screen lists it; `id` is what the renderer picks it by. */
export const foundServiceSchema = z.strictObject({
  id: z.string().min(1).max(255),
  name: z.string().max(255),
  url: z.string().max(2048),
});
export type FoundService = z.infer<typeof foundServiceSchema>;

/**
 * Why the screen cannot play yet, told to the renderer so it shows the right face: it is looking
 * for a service on the network, it is showing a pairing code, or the service refused its token.
 * Never holds a secret: the pairing's secret and the token stay in the agent.
 */
export const setupSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('discovering'), services: z.array(foundServiceSchema).max(50) }),
  /** Asking the service for a pairing code; `problem` says why it has none yet. */
  z.strictObject({
    kind: z.literal('contacting'),
    service_url: z.string().max(2048),
    problem: z.string().max(1000).nullable(),
  }),
  z.strictObject({
    kind: z.literal('pairing'),
    code: pairingCreatedSchema.shape.code,
    service_url: z.string().max(2048),
    /** The console's claim page with the code filled in: what the QR code holds. */
    claim_url: z.string().max(4096),
    expires_at: timestampSchema,
  }),
  z.strictObject({ kind: z.literal('refused'), service_url: z.string().max(2048) }),
]);
export type Setup = z.infer<typeof setupSchema>;

export const playerStateSchema = z.object({
  device: z.object({ tag: tagSchema, name: z.string() }),
  /** Connected to the service now. */
  online: z.boolean(),
  /** True while what is shown comes from the cache and may be out of date. */
  stale: z.boolean(),
  last_sync: timestampSchema.nullable(),
  playlist: playlistSchema.nullable(),
  /** Boards of the playlist, by board id. */
  boards: z.record(z.string(), boardExportSchema),
  /** Remote media URL to the URL the renderer loads it from (the local cache). */
  media: z.record(z.string(), z.string()),
  /** Set while the screen has no service or credential it can play with (see setupSchema). */
  setup: setupSchema.nullable().optional(),
  /**
   * How the picture is turned (degrees clockwise) and whether the screen is off now (a power
   * window: the renderer draws black and plays nothing). Absent: upright and on.
   */
  display: z.object({ rotation: rotationSchema, off: z.boolean() }).optional(),
  /**
   * Every playlist the screen's settings can play, by id (`playlist` is the one in force), with
   * the settings that choose among them: the agent switches by itself, the service away. Absent
   * (an older service, an older saved state): `playlist` is the device's own, always.
   */
  playlists: z.record(z.string(), playlistSchema).optional(),
  settings: screenSettingsSchema.nullable().optional(),
  /**
   * The emergency override on screen now (the settings' one while it is in force, as the agent's
   * clock reads its expiry): drawn full screen above everything else, the player kept underneath
   * and an off window's black included (`display.off` is false meanwhile). Null or absent: none.
   */
  override: overrideShownSchema.nullable().optional(),
  /** Map tiles and custom widgets' network, as this screen serves them (absent: neither). */
  web: playerWebSchema.optional(),
});
export type PlayerState = z.infer<typeof playerStateSchema>;

/** Reported by the renderer: what is on screen now, for heartbeats. */
/**
 * Reported by the renderer: what is on screen now, and its own size (the viewport in device
 * pixels), for heartbeats. A report without a display says nothing about the size.
 */
export const showingReportSchema = z.strictObject({
  showing: z.string().max(2048),
  display: displaySchema.optional(),
});
export type ShowingReport = z.infer<typeof showingReportSchema>;

/** Reported by the renderer: an item it could not show (`image:<url>`, `video:<url>`, `board:<id>`), and why. */
export const failureReportSchema = z.strictObject({
  item: z.string().max(2048),
  reason: z.string().max(1024),
});
export type FailureReport = z.infer<typeof failureReportSchema>;

export const rendererLogSchema = z.strictObject({
  level: z.enum(['info', 'warn', 'error']),
  message: z.string().max(4096),
});
export type RendererLog = z.infer<typeof rendererLogSchema>;

/**
 * The page's answer to a `screenshot` message (web player): the PNG of what it shows, in base64,
 * or why it could not take one. Electron's shell captures the window itself and never asks.
 */
export const screenshotTakenSchema = z.strictObject({
  request_id: z.string().min(1).max(64),
  png_base64: z.string().max(SCREENSHOT_BASE64_MAX).optional(),
  error: z.string().max(1000).optional(),
});
export type ScreenshotTaken = z.infer<typeof screenshotTakenSchema>;

/**
 * What a notification plays, resolved by the agent before it is delivered (the renderer never
 * looks a sound up in a state that may not have arrived yet): the player's own chime, a file of
 * the local cache, or nothing.
 */
export const notificationSoundSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('default') }),
    z.strictObject({ kind: z.literal('cached'), url: z.string().max(2048) }),
  ])
  .nullable();
export type NotificationSound = z.infer<typeof notificationSoundSchema>;

/**
 * Flows in one `metricsBatch` at most, the rest in the next: a page takes in a message in one
 * task, and a hundred flows' data at once held a slow display computer's main thread past a frame.
 */
export const METRICS_BATCH_MAX = 20;
/**
 * A widget shows a flow's new data at most this often: a TV shows a number for a person to read,
 * so a thousand updates a second cost a few redraws per widget. The agent sends each flow at most
 * this often, and the renderer redraws each widget at most this often.
 */
export const METRICS_MIN_INTERVAL_MS = 250;

/**
 * The one contract between the device agent and the renderer: each method (renderer to agent,
 * with its request and, when the renderer waits for one, its answer) and each message (agent to
 * renderer) once, with its schemas. Electron's IPC (main's handlers, the preload) and the web
 * player's WebSocket (its frames, the server's dispatch, the page's client) are derived from it.
 * The token and anything else secret never cross it.
 */
export const bridgeContract = {
  methods: {
    getState: { request: null, response: playerStateSchema },
    reportShowing: { request: showingReportSchema, response: null },
    reportFailure: { request: failureReportSchema, response: null },
    log: { request: rendererLogSchema, response: null },
    /** The operator picked one of several services found on the network (by its `id`). */
    chooseService: { request: z.strictObject({ id: foundServiceSchema.shape.id }), response: null },
    reportPlay: { request: playReportSchema, response: null },
    screenshotTaken: { request: screenshotTakenSchema, response: null },
    /** Whether a web page lets itself be framed, as this screen reaches it (the agent reads its headers). */
    checkFraming: { request: framingRequestSchema, response: framingSchema },
    /** Show a full-screen web page in the shell's own isolated view, or take it down (`url: null`). */
    showWebPage: { request: webPageRequestSchema, response: webPageShownSchema },
    /**
     * The service's time as the agent estimates it, read at the answer (ms since 1970; null before
     * the agent has one): the renderer samples it as the agent samples the service (docs/sync.md).
     */
    serviceTime: { request: null, response: serviceTimeSchema },
  },
  messages: {
    state: { state: playerStateSchema },
    /** One flow's new data: what agents before `metricsBatch` send, and what pages before it take. */
    metrics: { flow_tag: tagSchema, data: metricsDataSchema },
    /**
     * Flows' new data gathered for a moment (src/agent/metrics-outbox.ts): one message for many
     * flows costs a page one event and one parse where one each cost it a thousand a second.
     */
    metricsBatch: {
      flows: z.array(z.object({ flow_tag: tagSchema, data: metricsDataSchema })).max(METRICS_BATCH_MAX),
    },
    notification: { notification: notificationSchema, sound: notificationSoundSchema },
    /** Show the device's name and tag full-screen for `seconds` (the `identify` command). */
    identify: { name: z.string(), tag: tagSchema, seconds: z.int().min(1) },
    /** Reload the page, saying why (the web player's `reload` and `restart`; Electron's shell reloads its window). */
    reload: { reason: z.string().max(200) },
    /** Capture what the page shows and answer with `screenshotTaken` (the web player's `screenshot`). */
    screenshot: { request_id: z.string().min(1).max(64) },
  },
} satisfies {
  methods: Record<string, { request: z.ZodType | null; response: z.ZodType | null }>;
  messages: Record<string, z.ZodRawShape>;
};

type Methods = typeof bridgeContract.methods;
type Messages = typeof bridgeContract.messages;
type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export type BridgeMethod = keyof Methods;
export type BridgeRequest<M extends BridgeMethod> = Output<Methods[M]['request']>;
export type BridgeAnswer<M extends BridgeMethod> = Output<Methods[M]['response']>;
/** The arguments of a method: none, or its request. */
export type BridgeArgs<M extends BridgeMethod> = Methods[M]['request'] extends null
  ? []
  : [request: BridgeRequest<M>];
/** Methods the renderer waits on for an answer (IPC invoke); the others it only tells (IPC send). */
export type AskMethod = {
  [M in BridgeMethod]: Methods[M]['response'] extends null ? never : M;
}[BridgeMethod];
export type TellMethod = Exclude<BridgeMethod, AskMethod>;

export type MessageKind = keyof Messages;
/** Pushed from the agent to the renderer. */
export type BridgeMessage = {
  [K in MessageKind]: { kind: K } & z.output<z.ZodObject<Messages[K]>>;
}[MessageKind];

export type Unsubscribe = () => void;

/** What the renderer sees as `window.wallboard`: each method of the contract, and its messages. */
export type WallboardBridge = {
  [M in AskMethod]: (...args: BridgeArgs<M>) => Promise<BridgeAnswer<M>>;
} & {
  [M in TellMethod]: (...args: BridgeArgs<M>) => void;
} & { onMessage(listener: (message: BridgeMessage) => void): Unsubscribe };

export const bridgeMethods = Object.keys(bridgeContract.methods) as BridgeMethod[];

export function isAskMethod(method: BridgeMethod): method is AskMethod {
  return bridgeContract.methods[method].response !== null;
}

/** Checks a method's request against the contract; a method without one takes nothing. */
export function parseRequest<M extends BridgeMethod>(
  method: M,
  payload: unknown,
): z.ZodSafeParseResult<BridgeRequest<M>> {
  const schema = bridgeContract.methods[method].request ?? z.undefined();
  // The schema is the one of `method`, so its output is that method's request.
  return schema.safeParse(payload) as z.ZodSafeParseResult<BridgeRequest<M>>;
}

function messageSchemas(): [z.ZodObject, ...z.ZodObject[]] {
  const [first, ...rest] = Object.entries(bridgeContract.messages).map(([kind, shape]) =>
    z.object({ kind: z.literal(kind), ...shape }),
  );
  if (!first) throw new Error('the bridge contract has no messages');
  return [first, ...rest];
}

/** Every message of the contract, told apart by its `kind`. */
// zod cannot infer a union built from the table's entries; BridgeMessage is that union's type.
export const bridgeMessageSchema = z.discriminatedUnion('kind', messageSchemas()) as unknown as z.ZodType<
  BridgeMessage,
  unknown
>;

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** Electron IPC channels: one per method (`wallboard:get-state`), and one for every message. */
export const BRIDGE_CHANNELS = {
  ...(Object.fromEntries(bridgeMethods.map((method) => [method, `wallboard:${kebab(method)}`])) as Record<
    BridgeMethod,
    string
  >),
  message: 'wallboard:message',
} as const;
