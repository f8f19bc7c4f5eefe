import { iconNameSchema, tagSchema } from '../../src/shared/common';
import { describeIssues } from '../../src/shared/issues';
import {
  NOTIFICATION_TEXT_MAX,
  notificationCreateSchema,
  soundUrlSchema,
  type NotificationCreate,
} from '../../src/shared/notification';
import { createNotification } from '../actions/notify';
import type { ServiceConfig, ServiceContext } from '../context';
import { DomainError } from '../domain/errors';
import { HTTP_MEDIA_REFUSED, isPlainHttpMedia } from '../domain/http-media';
import { ChannelRepository } from '../repositories/channels';
import { FlowRepository } from '../repositories/flows';
import { ArgumentError, durationSeconds } from './duration';

/** The longest notification the interface allows on screen: a day, as the POST body allows. */
const DURATION_MAX = 86400;

export interface PostRequest {
  /** Where it goes: a channel by tag (or id), or the channel of a flow by tag. */
  target: { kind: 'channel' | 'flow'; tag: string };
  body: NotificationCreate;
}

function fail(message: string): never {
  throw new ArgumentError(`notifications.post: ${message}`);
}

function tagOrEmpty(value: unknown, name: string): string {
  if (typeof value !== 'string') fail(`${name} must be a string (a ${name} tag, or "" to use the other)`);
  if (value !== '' && !tagSchema.safeParse(value).success) {
    fail(`${name} ${JSON.stringify(value)} is not a tag (1 to 100 letters, digits, "_", "-" or ".")`);
  }
  return value;
}

function text(value: unknown, name: string): string {
  if (value === undefined || value === null) fail(`${name} is required`);
  if (typeof value !== 'string') fail(`${name} must be a string`);
  if (value.length === 0) fail(`${name} must not be empty`);
  if (value.length > NOTIFICATION_TEXT_MAX)
    fail(`${name} must be at most ${NOTIFICATION_TEXT_MAX} characters`);
  return value;
}

/**
 * Checks the arguments of `post(channel, flow, title, message, duration, icon = "", sound =
 * "default")` with the interface's rules; throws an ArgumentError naming the first bad one.
 */
export function checkPostArguments(
  args: readonly unknown[],
  config: Pick<ServiceConfig, 'httpMedia'> = { httpMedia: false },
): PostRequest {
  const [channelArg, flowArg, titleArg, messageArg, durationArg, iconArg = '', soundArg = 'default'] = args;
  const channel = tagOrEmpty(channelArg, 'channel');
  const flow = tagOrEmpty(flowArg, 'flow');
  if ((channel === '') === (flow === '')) {
    fail('give exactly one of channel and flow as a tag, and the other as ""');
  }
  const title = text(titleArg, 'title');
  const message = text(messageArg, 'message');
  let duration: number;
  try {
    duration = durationSeconds(durationArg, 'duration', DURATION_MAX);
  } catch (error) {
    fail((error as Error).message);
  }
  if (typeof iconArg !== 'string') fail('icon must be a string ("" for none)');
  if (iconArg !== '' && !iconNameSchema.safeParse(iconArg).success) {
    fail(`icon must be "" or an icon name such as "bug" or "fa-bug", not ${JSON.stringify(iconArg)}`);
  }
  if (typeof soundArg !== 'string' || !soundUrlSchema.safeParse(soundArg).success) {
    fail('sound must be "default", an http(s) URL or a library medium');
  }
  if (isPlainHttpMedia(config, soundArg)) fail(`sound ${HTTP_MEDIA_REFUSED}`);
  const body = notificationCreateSchema.safeParse({
    title,
    message,
    icon: iconArg,
    duration,
    sound_url: soundArg,
  });
  // The checks above cover the schema; this keeps the two from drifting apart unnoticed.
  if (!body.success) fail(describeIssues(body.error));
  return {
    target: channel === '' ? { kind: 'flow', tag: flow } : { kind: 'channel', tag: channel },
    body: body.data,
  };
}

/**
 * `post()` for a script: creates the notification as `POST /channels/:id/notifications` does and
 * publishes it to its channel. True when created; false (with the reason in the run's log) when
 * the channel or flow does not exist or the flow has no channel.
 */
export async function postFromScript(
  ctx: ServiceContext,
  args: readonly unknown[],
  log: (line: string) => void,
): Promise<boolean> {
  const { target, body } = checkPostArguments(args, ctx.config);
  let channelId: string;
  if (target.kind === 'channel') {
    const channel = await new ChannelRepository(ctx.db).findByIdOrTag(target.tag);
    if (!channel) {
      log(`[warn] notifications.post: no channel has the tag "${target.tag}"`);
      return false;
    }
    channelId = channel.id;
  } else {
    const flow = await new FlowRepository(ctx.db).getByTag(target.tag);
    if (!flow || flow.channel_id === null) {
      log(
        `[warn] notifications.post: ${flow ? `flow "${target.tag}" has no channel` : `no flow has the tag "${target.tag}"`}`,
      );
      return false;
    }
    channelId = flow.channel_id;
  }
  try {
    await createNotification(ctx, channelId, body);
  } catch (error) {
    if (!(error instanceof DomainError && error.kind === 'not_found')) throw error;
    log('[warn] notifications.post: the channel was deleted meanwhile');
    return false;
  }
  return true;
}
