import type { FieldIssue } from '../../src/shared/issues';
import type { Playlist, PlaylistCreate, PlaylistItem, PlaylistUpdate } from '../../src/shared/playlist';
import type { ServiceContext } from '../context';
import { invalid } from '../domain/errors';
import { refuseHttpMedia } from '../domain/http-media';
import type { Emit } from '../realtime/changes';
import { PlaylistRepository } from '../repositories/playlists';
import { ScreenSettingsRepository } from '../repositories/screen-settings';
import { checkMediaExist } from './media';
import { currentMediaUrls } from './media-versions';
import { announceScreens } from './screen-settings';

/** Board items must name an existing board, and their channel (when given) an existing channel. */
async function checkItems(ctx: ServiceContext, items: readonly PlaylistItem[]): Promise<void> {
  // Images and videos are media; web pages are not, and may be plain http.
  refuseHttpMedia(
    ctx.config,
    items.map((item, index) => ({
      path: `body.items.${index}.url`,
      url: item.type === 'image' || item.type === 'video' ? item.url : null,
    })),
  );
  await checkMediaExist(
    ctx.db,
    items.map((item, index) => ({
      path: `body.items.${index}.url`,
      url: item.type === 'board' ? null : item.url,
    })),
  );
  const boardItems = items.flatMap((item, index) => (item.type === 'board' ? [{ item, index }] : []));
  if (boardItems.length === 0) return;
  const playlists = new PlaylistRepository(ctx.db);
  const boards = await playlists.existingBoards([...new Set(boardItems.map(({ item }) => item.board_id))]);
  const channels = await playlists.existingChannels([
    ...new Set(boardItems.flatMap(({ item }) => (item.channel_id ? [item.channel_id] : []))),
  ]);
  const issues: FieldIssue[] = [];
  for (const { item, index } of boardItems) {
    if (!boards.has(item.board_id)) {
      issues.push({ path: `body.items.${index}.board_id`, message: `board ${item.board_id} does not exist` });
    }
    if (item.channel_id && !channels.has(item.channel_id)) {
      issues.push({
        path: `body.items.${index}.channel_id`,
        message: `channel ${item.channel_id} does not exist`,
      });
    }
  }
  if (issues.length > 0) {
    throw invalid(
      `playlist items name boards or channels that do not exist: ${issues.map((i) => i.path).join(', ')}`,
      issues,
    );
  }
}

const playlistChanged = (emit: Emit, id: string) => emit({ type: 'playlist.changed', playlist_id: id });

export async function createPlaylist(ctx: ServiceContext, body: PlaylistCreate): Promise<Playlist> {
  await checkItems(ctx, body.items);
  // Library media as their current version and expiry, whatever URL of theirs was sent.
  const items = await currentMediaUrls(ctx.db, body.items);
  return ctx.changes.transaction(async (tx, emit) => {
    const playlist = await new PlaylistRepository(tx).create({ ...body, items }, ctx.clock.now());
    // No device can show it yet: the consoles list it.
    emit({ type: 'console', resource: 'playlists', id: playlist.id });
    return playlist;
  });
}

/** Null when there is no such playlist. `items`, when given, replace all its items. */
export async function updatePlaylist(
  ctx: ServiceContext,
  id: string,
  patch: PlaylistUpdate,
): Promise<Playlist | null> {
  if (patch.name === undefined && patch.items === undefined) return new PlaylistRepository(ctx.db).find(id);
  if (patch.items) await checkItems(ctx, patch.items);
  const items = patch.items && (await currentMediaUrls(ctx.db, patch.items));
  return ctx.changes.transaction(async (tx, emit) => {
    const updated = await new PlaylistRepository(tx).update(id, { ...patch, items }, ctx.clock.now());
    if (updated) playlistChanged(emit, id);
    return updated;
  });
}

/**
 * False when there is no such playlist. The devices and groups that had it are left without one,
 * and the schedules that named it without its entries (and without it as their default).
 */
export function deletePlaylist(ctx: ServiceContext, id: string): Promise<boolean> {
  // The foreign key clears the devices' and groups' playlist_id, so who had it is asked first.
  // The lock keeps a device or a group from being given the playlist between that question and
  // the delete (schedules name their playlists under the same lock: actions/screen-settings.ts).
  return ctx.changes.transaction(async (tx, emit) => {
    const repository = new PlaylistRepository(tx);
    if (!(await repository.lockForDelete(id))) return false;
    const had = await new ScreenSettingsRepository(tx).forgetPlaylist(id);
    await repository.delete(id);
    announceScreens(emit, had);
    playlistChanged(emit, id);
    return true;
  });
}
