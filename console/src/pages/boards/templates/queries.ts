import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { boardSchema } from '../../../../../src/shared/board';
import { boardTemplateSchema } from '../../../../../src/shared/templates/template';
import { api } from '../../../api/client';

/** The ready boards (`GET /board-templates`): they change only with the service, so read once. */
export const templatesQuery = queryOptions({
  queryKey: ['board-templates'],
  queryFn: () => api(z.array(boardTemplateSchema), '/board-templates'),
  staleTime: Infinity,
});

/** Makes a board from a template (its flows, sample data and disabled script); answers its id. */
export async function createFromTemplate(templateId: string): Promise<string> {
  const created = z.object({ board: boardSchema.pick({ id: true }) });
  const path = `/boards/from-template/${encodeURIComponent(templateId)}`;
  return (await api(created, path, { method: 'POST', body: {} })).board.id;
}
