import type { Channel, ChannelCreate, ChannelUpdate } from '../../src/shared/channel';
import { defaultChannelId } from '../accounts/accounts';
import type { ServiceContext } from '../context';
import { conflict, DomainError } from '../domain/errors';
import { ChannelRepository, unknownParent } from '../repositories/channels';
import { slugOf } from '../repositories/tags';

/** Two creations may pick the same free tag at once; the loser picks again. */
const TAG_ATTEMPTS = 5;

/** A virtual channel based on an existing one; the tag, when not given, is made of the name. */
export async function createChannel(ctx: ServiceContext, body: ChannelCreate): Promise<Channel> {
  const { name, parent_channel_id, tag } = body;
  const channels = new ChannelRepository(ctx.db);
  if (!(await channels.exists(parent_channel_id))) throw unknownParent(parent_channel_id);
  const slug = slugOf(name, 'channel');
  for (let attempt = 1; ; attempt++) {
    const chosen = tag ?? (await channels.freeTag(slug));
    try {
      const channel = await channels.createVirtual({
        name,
        tag: chosen,
        parent_channel_id,
        created_at: ctx.clock.now(),
      });
      // No device to tell, but the consoles list it.
      await ctx.changes.publish({ type: 'console', resource: 'channels', id: channel.id });
      return channel;
    } catch (error) {
      // The only conflict of a new channel is its tag.
      const taken = error instanceof DomainError && error.kind === 'conflict';
      if (!taken || tag !== undefined || attempt >= TAG_ATTEMPTS) throw error;
    }
  }
}

/** Renames a channel or changes its tag; null when there is no such channel. */
export async function updateChannel(
  ctx: ServiceContext,
  id: string,
  body: ChannelUpdate,
): Promise<Channel | null> {
  const channel = await new ChannelRepository(ctx.db).update(id, body);
  if (channel) await ctx.changes.publish({ type: 'console', resource: 'channels', id });
  return channel;
}

/**
 * Deletes the channel with its virtual channels; the flows, boards and playlists that named them
 * change, and their devices hear of it. False when there is no such channel.
 */
export async function deleteChannel(ctx: ServiceContext, id: string): Promise<boolean> {
  if (id === defaultChannelId()) throw conflict('the default channel cannot be deleted');
  return ctx.changes.transaction(async (tx, emit) => {
    const deleted = await new ChannelRepository(tx).delete(id, ctx.clock.now());
    if (!deleted) return false;
    for (const flowId of deleted.flowIds) emit({ type: 'flow.changed', flow_id: flowId });
    for (const boardId of deleted.boardIds) emit({ type: 'board.changed', board_id: boardId });
    for (const playlistId of deleted.playlistIds) {
      emit({ type: 'playlist.changed', playlist_id: playlistId });
    }
    emit({ type: 'console', resource: 'channels', id });
    return true;
  });
}
