import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { boardContentSchema } from '../../../../src/shared/board-content';
import { boardExportSchema } from '../../../../src/shared/board-export';
import { widgetSchema } from '../../../../src/shared/widget';
import { api } from '../../api/client';

const path = (id: string) => `/boards/${encodeURIComponent(id)}`;

/**
 * The board with its widgets, read together (`GET /boards/:id/content`): what the settings are
 * saved against, so that a save made from a copy someone else changed since is refused (409).
 */
export const contentQuery = (id: string) =>
  queryOptions({ queryKey: ['boards', id], queryFn: () => api(boardContentSchema, `${path(id)}/content`) });

/** The board's widgets, each with its id and flow id (the list, and the counts of the boards page). */
export const widgetsQuery = (id: string) =>
  queryOptions({
    queryKey: ['boards', id, 'widgets'],
    queryFn: () => api(z.array(widgetSchema), `${path(id)}/widgets`),
  });

/**
 * The board's export (what a screen draws, the widgets' data with it) under the `flows` resource,
 * so that new data of the board's flows (a `flows` notice, which says nothing of boards) reaches
 * the editor's preview without refetching every board list.
 */
export const boardDataQuery = (id: string) =>
  queryOptions({
    queryKey: ['flows', 'of-board', id],
    queryFn: () => api(boardExportSchema, `${path(id)}/export`),
  });
