import type { FieldIssue } from '../../src/shared/issues';
import { libraryMediaId, type Media, type MediaKind, type MediaUsage } from '../../src/shared/media';
import { holdMediaQuota } from '../accounts/quotas';
import type { ServiceContext } from '../context';
import type { Queryable } from '../db/database';
import { conflict, invalid, type DomainError } from '../domain/errors';
import { newId } from '../ids';
import type { MediaStorage, ReceivedFile } from '../media/storage';
import { BoardRepository } from '../repositories/boards';
import { MediaRepository } from '../repositories/media';
import { PlaylistRepository } from '../repositories/playlists';

/** The longest name kept of an uploaded file. */
const NAME_MAX = 255;

/** The file's own name without a path, as browsers and curl send it; "upload" when it has none. */
export function mediaNameOf(filename: string | undefined): string {
  const base = (filename ?? '').split(/[\\/]/).pop() ?? '';
  // Control characters and lone surrogates have no place in a name shown in lists.
  const clean = base
    .replace(/[\p{Cc}\p{Cs}]/gu, '')
    .trim()
    .slice(0, NAME_MAX);
  return clean || 'upload';
}

/**
 * Keeps a received file as a new medium of the type its content told (media/receive.ts
 * `sniffMedia`; the route refuses the others). The file is taken away from its temporary path.
 * Past the account's media quotas it is refused (accounts/quotas.ts) and nothing is kept.
 */
export async function uploadMedia(
  ctx: ServiceContext,
  storage: MediaStorage,
  file: ReceivedFile,
  name: string,
  type: { contentType: string; kind: MediaKind },
): Promise<Media> {
  const at = ctx.clock.now();
  const media = await storage.keep(file, async (tx) => {
    // In the transaction that records it, the account's row locked: two uploads at once are
    // counted one after the other. A refused file's bytes go with the rolled back row.
    await holdMediaQuota(tx, file.bytes);
    return new MediaRepository(tx).insert(
      {
        id: newId('med'),
        name,
        content_type: type.contentType,
        kind: type.kind,
        bytes: file.bytes,
        sha256: file.sha256,
      },
      at,
    );
  });
  await ctx.changes.publish({ type: 'console', resource: 'media', id: media.id });
  return { ...media, used_by: [] };
}

const describeUsage = (usage: MediaUsage): FieldIssue => ({
  path: `used_by.${usage.type}.${usage.id}`,
  message: `${usage.type} ${JSON.stringify(usage.name)} (${usage.id}) uses it`,
});

/**
 * Deletes a medium. One in use is refused (409, its users in the details) unless `detach`: then
 * the playlists' items that name it go and the boards that have it as background get none, in
 * the same transaction, and the screens hear of each change. Its bytes go when no medium is left
 * that shares them. False when there is no such medium.
 */
export async function deleteMedia(
  ctx: ServiceContext,
  storage: MediaStorage,
  id: string,
  detach: boolean,
): Promise<boolean> {
  const now = ctx.clock.now();
  const sha256 = await ctx.changes.transaction(async (tx, emit) => {
    const repository = new MediaRepository(tx);
    const media = await repository.find(id);
    if (!media) return null;
    const usages = await repository.usageOf(id);
    if (usages.length > 0 && !detach) {
      throw conflict(
        `medium ${id} is used by ${usages.length} playlist(s) or board(s); remove it from them first, or delete with ?detach=true`,
        usages.map(describeUsage),
      );
    }
    for (const usage of usages) {
      if (usage.type === 'playlist') {
        const playlists = new PlaylistRepository(tx);
        const playlist = await playlists.find(usage.id);
        if (!playlist) continue;
        const items = playlist.items.filter(
          (item) => item.type === 'board' || libraryMediaId(item.url) !== id,
        );
        await playlists.update(usage.id, { items }, now);
        emit({ type: 'playlist.changed', playlist_id: usage.id });
      } else {
        const boards = new BoardRepository(tx);
        const board = await boards.get(usage.id);
        if (!board) continue;
        await boards.replace({ ...board, background_url: null }, now);
        emit({ type: 'board.changed', board_id: usage.id });
      }
    }
    await repository.delete(id);
    await storage.releaseIn(tx, [media.sha256]);
    return media.sha256;
  });
  if (sha256 === null) return false;
  await storage.released([sha256]);
  await ctx.changes.publish({ type: 'console', resource: 'media', id });
  return true;
}

/** A media URL a write names, and the field that names it. */
export interface NamedMedia {
  path: string;
  url: string | null | undefined;
}

/**
 * For each of `writes`, the 400 refusing it when the library media URLs it names name media that
 * do not exist, or null: one read for all of them.
 */
export async function mediaRefusals(
  db: Queryable,
  writes: readonly (readonly NamedMedia[])[],
): Promise<(DomainError | null)[]> {
  const wanted = writes.map((named) =>
    named.flatMap(({ path, url }) => {
      const id = url ? libraryMediaId(url) : null;
      return id ? [{ path, id }] : [];
    }),
  );
  const ids = [...new Set(wanted.flat().map(({ id }) => id))];
  const existing = ids.length > 0 ? await new MediaRepository(db).existing(ids) : new Set<string>();
  return wanted.map((named) => {
    const issues = named
      .filter(({ id }) => !existing.has(id))
      .map(({ path, id }) => ({ path, message: `names medium ${id}, which is not in the media library` }));
    return issues.length === 0
      ? null
      : invalid(
          `unknown library media: ${issues.map((issue) => issue.path).join(', ')} (upload with POST /media, list with GET /media)`,
          issues,
        );
  });
}

/** Refuses (400) a write whose library media URLs name media that do not exist. */
export async function checkMediaExist(db: Queryable, named: readonly NamedMedia[]): Promise<void> {
  const [refusal] = await mediaRefusals(db, [named]);
  if (refusal) throw refusal;
}
