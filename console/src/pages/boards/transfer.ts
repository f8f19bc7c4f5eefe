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

/** Downloads the board's export (`GET /boards/:id/export`) as `<name>.json`. */
export async function downloadExport(id: string, name: string): Promise<void> {
  const response = await request(`${path(id)}/export`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(name);
  link.click();
  URL.revokeObjectURL(url);
}

/** Imports a board from an export file (ours or the original product's), answering the new id. */
export async function importFile(file: File): Promise<string> {
  let body: unknown;
  try {
    body = JSON.parse(await file.text());
  } catch (error) {
    throw new ApiError(0, 'invalid_file', `${file.name} is not JSON: ${(error as Error).message}`);
  }
  return (await api(created, '/boards/import', { method: 'POST', body })).id;
}

export async function duplicateBoard(id: string): Promise<string> {
  // The copy is named "<name> (copy)" by the service.
  return (await api(boardContentSchema, `${path(id)}/duplicate`, { method: 'POST', body: {} })).board.id;
}
