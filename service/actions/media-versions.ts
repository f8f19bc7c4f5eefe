import { libraryMediaId, type Media, type MediaKind, type MediaUpdate } from '../../src/shared/media';
import type { PlaylistItem } from '../../src/shared/playlist';
import { holdMediaQuota } from '../accounts/quotas';
import type { ServiceContext } from '../context';
import type { Queryable } from '../db/database';
import { conflict, invalid } from '../domain/errors';
import type { MediaStorage, ReceivedFile } from '../media/storage';
import type { Emit } from '../realtime/changes';
import { BoardRepository } from '../repositories/boards';
import { MediaRepository, type StoredMedia } from '../repositories/media';
import { PlaylistRepository } from '../repositories/playlists';

/**
 * What screens know of a medium travels in the URL playlists and boards name it by
 * (`playUrlOf`: its content's version and its expiry). Whenever either changes, every playlist
 * item and board background naming the medium is rewritten to the new URL in one transaction and
 * the screens are told (`playlist.changed`, `board.changed`): a replaced file is a new URL to
 * their caches, so it is fetched again, and an expiry is read by the screen's own clock, so a
 * screen that is offline stops playing the medium on time too.
 */
async function renameUsages(tx: Queryable, emit: Emit, media: StoredMedia, at: Date): Promise<void> {
  const repository = new MediaRepository(tx);
  const url = media.play_url;
  for (const usage of await repository.usageOf(media.id)) {
    if (usage.type === 'playlist') {
      const playlists = new PlaylistRepository(tx);
      const playlist = await playlists.find(usage.id);
      if (!playlist) continue;
      let changed = false;
      const items = playlist.items.map((item) => {
        if (item.type === 'board' || libraryMediaId(item.url) !== media.id || item.url === url) return item;
        changed = true;
        return { ...item, url };
      });
      if (!changed) continue;
      await playlists.update(usage.id, { items }, at);
      emit({ type: 'playlist.changed', playlist_id: usage.id });
    } else {
      const boards = new BoardRepository(tx);
      const board = await boards.get(usage.id);
      if (!board || board.background_url === url) continue;
      await boards.replace({ ...board, background_url: url }, at);
      emit({ type: 'board.changed', board_id: usage.id });
    }
  }
}

/**
 * Renames, retags or sets the expiry of a medium (`PATCH /media/:id`); null when there is none.
 * A new expiry reaches the playlists and boards that use it, and so the screens.
 */
export async function updateMedia(
  ctx: ServiceContext,
  id: string,
  patch: MediaUpdate,
): Promise<Media | null> {
  const expires_at =
    patch.expires_at === undefined || patch.expires_at === null
      ? patch.expires_at
      : new Date(patch.expires_at).toISOString();
  const updated = await ctx.changes.transaction(async (tx, emit) => {
    const media = await new MediaRepository(tx).update(id, { ...patch, expires_at });
    if (!media) return null;
    if (expires_at !== undefined) await renameUsages(tx, emit, media, ctx.clock.now());
    emit({ type: 'console', resource: 'media', id });
    return media;
  });
  return updated && new MediaRepository(ctx.db).findUsed(id);
}

/**
 * Replaces a medium's file, keeping its id, name, tags and expiry (`PUT /media/:id/content`).
 * The new file must be of the same kind (an image stays an image), since playlist items say
 * what they show. The bytes added count against the account's media quota; the old content goes
 * when no medium is left that shares it. Null when there is no such medium.
 */
export async function replaceMedia(
  ctx: ServiceContext,
  storage: MediaStorage,
  id: string,
  file: ReceivedFile,
  type: { contentType: string; kind: MediaKind },
): Promise<Media | null> {
  const replaced = await storage.keep(file, async (tx) => {
    const repository = new MediaRepository(tx);
    const before = await repository.find(id);
    if (!before) return null;
    if (before.kind !== type.kind) {
      throw invalid(`the new file is ${article(type.kind)}; medium ${id} is ${article(before.kind)}`, [
        { path: 'file', message: `must be ${article(before.kind)}, as the file it replaces` },
      ]);
    }
    if (file.bytes > before.bytes) await holdMediaQuota(tx, file.bytes - before.bytes, false);
    const after = await repository.replaceContent(id, {
      content_type: type.contentType,
      bytes: file.bytes,
      sha256: file.sha256,
    });
    if (!after) throw conflict(`medium ${id} was deleted while its file was being replaced`);
    if (before.sha256 !== after.sha256) await storage.releaseIn(tx, [before.sha256]);
    return { before, after };
  });
  if (!replaced) return null;
  if (replaced.before.sha256 !== replaced.after.sha256) await storage.released([replaced.before.sha256]);
  await ctx.changes.transaction(async (tx, emit) => {
    await renameUsages(tx, emit, replaced.after, ctx.clock.now());
    emit({ type: 'console', resource: 'media', id });
  });
  return new MediaRepository(ctx.db).findUsed(id);
}

const article = (kind: MediaKind) => (kind === 'image' ? 'an image' : `a ${kind}`);

/**
 * The items of a playlist being written, their library media named by the URL of their current
 * version and expiry, whichever form the client sent (`/media/<id>/content` as the library lists
 * it, or an older version's URL). Media that do not exist are left for checkMediaExist to refuse.
 */
export async function currentMediaUrls(
  db: Queryable,
  items: readonly PlaylistItem[],
): Promise<PlaylistItem[]> {
  const ids = items.flatMap((item) => {
    const id = item.type === 'board' ? null : libraryMediaId(item.url);
    return id ? [id] : [];
  });
  if (ids.length === 0) return [...items];
  const repository = new MediaRepository(db);
  const urls = new Map<string, string>();
  for (const id of new Set(ids)) {
    const media = await repository.find(id);
    if (media) urls.set(id, media.play_url);
  }
  return items.map((item) => {
    if (item.type === 'board') return item;
    const url = urls.get(libraryMediaId(item.url) ?? '');
    return url ? { ...item, url } : item;
  });
}
