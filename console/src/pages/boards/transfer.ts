import { z } from 'zod';
import { boardContentSchema } from '../../../../src/shared/board-content';
import { idSchema } from '../../../../src/shared/common';
import { api, ApiError, request } from '../../api/client';

const path = (id: string) => `/boards/${encodeURIComponent(id)}`;
/** The answer of an import: the new board's export with its id, of which only the id is needed. */
const created = z.object({ id: idSchema });

/** A file name from a board's name: what file systems refuse becomes "-". */
export function fileNameOf(name: string): string {
  const safe = name.replace(/[\\/:*?"<>|\p{Cc}]+/gu, '-').trim();
  return `${safe || 'board'}.json`;
}

function download(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(url);
}

/** Downloads the board's export (`GET /boards/:id/export`) as `<name>.json`. */
export async function downloadExport(id: string, name: string): Promise<void> {
  const response = await request(`${path(id)}/export`);
  download(await response.blob(), fileNameOf(name));
}

/**
 * Downloads several boards' exports as one file holding their list, `boards.json`: one download
 * rather than one per board (which browsers stop to ask about). The import takes such a file too.
 */
export async function downloadExports(ids: readonly string[]): Promise<void> {
  const exports: unknown[] = [];
  // One after the other: a list of hundreds must not open hundreds of requests at once.
  for (const id of ids) exports.push(await (await request(`${path(id)}/export`)).json());
  download(new Blob([JSON.stringify(exports, null, 2)], { type: 'application/json' }), 'boards.json');
}

/**
 * Imports the boards of an export file (ours or the original product's): one board, or the list
 * that exporting several boards writes, each in turn. Answers the new ids; a refusal stops there
 * and says which board of the list it was.
 */
export async function importFile(file: File): Promise<string[]> {
  let body: unknown;
  try {
    body = JSON.parse(await file.text());
  } catch (error) {
    throw new ApiError(0, 'invalid_file', `${file.name} is not JSON: ${(error as Error).message}`);
  }
  const boards = Array.isArray(body) ? body : [body];
  const ids: string[] = [];
  for (const [index, board] of boards.entries()) {
    try {
      ids.push((await api(created, '/boards/import', { method: 'POST', body: board })).id);
    } catch (error) {
      if (!(error instanceof ApiError) || boards.length === 1) throw error;
      const done = ids.length > 0 ? ` (the ${ids.length} before it were imported)` : '';
      throw new ApiError(
        error.status,
        error.code,
        `board ${index + 1} of ${boards.length}${done}: ${error.message}`,
        error.details,
      );
    }
  }
  return ids;
}

export async function duplicateBoard(id: string): Promise<string> {
  // The copy is named "<name> (copy)" by the service.
  return (await api(boardContentSchema, `${path(id)}/duplicate`, { method: 'POST', body: {} })).board.id;
}
