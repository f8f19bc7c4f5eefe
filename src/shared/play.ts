import { z } from 'zod';
import { idSchema, tagSchema, timestampSchema, webUrlSchema } from './common';
import { mediaUrlSchema } from './media';

/**
 * Proof of play: one record per turn of a playlist item on screen. The renderer reports each
 * when it leaves the screen, the agent gives it an id and keeps it until the service has it, and
 * the service keeps it once whatever the number of uploads (the id decides).
 */

/** The longest turn a record may claim: an item that stays on screen is cut into turns far shorter. */
const PLAY_SECONDS_MAX = 7 * 86_400;

const playFields = {
  type: z.enum(['board', 'image', 'video', 'web']),
  /** The board shown; null for an image, a video or a web page. */
  board_id: idSchema.nullable(),
  /** The image or video shown (its remote URL, or a library medium's), or the web page's; null for a board. */
  url: mediaUrlSchema.nullable(),
  /** The board's channel whose data and notifications were shown; null for media. */
  channel_id: idSchema.nullable(),
  started_at: timestampSchema,
  ended_at: timestampSchema,
};

type PlayFields = {
  type: 'board' | 'image' | 'video' | 'web';
  board_id: string | null;
  url: string | null;
  started_at: string;
  ended_at: string;
};

/**
 * A board names its board, media and web pages their URL (a web page's is on the web, never the
 * library); a turn ends after it starts, and not days later.
 */
function checkPlay(play: PlayFields, ctx: z.RefinementCtx): void {
  const noun = play.type === 'web' ? 'web page' : play.type;
  if (play.type === 'web' && play.url !== null && !webUrlSchema.safeParse(play.url).success) {
    ctx.addIssue({ code: 'custom', path: ['url'], message: 'must be an http or https URL for a web page' });
  }
  if (play.type === 'board' ? play.board_id === null : play.url === null) {
    const field = play.type === 'board' ? 'board_id' : 'url';
    ctx.addIssue({ code: 'custom', path: [field], message: `is required for a ${noun}` });
  }
  if (play.type === 'board' ? play.url !== null : play.board_id !== null) {
    const field = play.type === 'board' ? 'url' : 'board_id';
    ctx.addIssue({ code: 'custom', path: [field], message: `must be null for a ${noun}` });
  }
  const seconds = (Date.parse(play.ended_at) - Date.parse(play.started_at)) / 1000;
  if (!(seconds >= 0 && seconds <= PLAY_SECONDS_MAX)) {
    ctx.addIssue({
      code: 'custom',
      path: ['ended_at'],
      message: `must be after started_at, by at most ${PLAY_SECONDS_MAX / 86_400} days`,
    });
  }
}

/** Renderer to agent: an item that was on screen, with the screen's clock. */
export const playReportSchema = z.strictObject(playFields).superRefine(checkPlay);
export type PlayReport = z.infer<typeof playReportSchema>;

/** Agent to service: a report with the id the agent gave it, so that uploading it twice keeps one. */
export const playUploadSchema = z.strictObject({ id: z.uuid(), ...playFields }).superRefine(checkPlay);
export type PlayUpload = z.infer<typeof playUploadSchema>;

/** Records per upload: a device sends its backlog in batches of at most this many. */
export const PLAYS_PER_UPLOAD_MAX = 500;
export const playsUploadSchema = z
  .array(playUploadSchema)
  .min(1, 'must hold at least one play')
  .max(PLAYS_PER_UPLOAD_MAX, `must hold at most ${PLAYS_PER_UPLOAD_MAX} plays`);

/** A record as the service answers it. */
export const playSchema = z.object({
  id: z.uuid(),
  device_tag: tagSchema,
  ...playFields,
  /** Seconds on screen, to the millisecond. */
  seconds: z.number().min(0),
});
export type Play = z.infer<typeof playSchema>;

/** The answer to an upload: how many it held, and how many of them were new to the service. */
export const playsReceivedSchema = z.object({ received: z.int(), stored: z.int() });
export type PlaysReceived = z.infer<typeof playsReceivedSchema>;
