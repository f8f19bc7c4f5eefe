import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { boardSchema } from '../../src/shared/board';
import { boardExportSchema } from '../../src/shared/board-export';
import { scriptSchema } from '../../src/shared/script';
import { BOARD_TEMPLATES, findTemplate } from '../../src/shared/templates';
import { boardTemplateSchema, fromTemplateSchema } from '../../src/shared/templates/template';
import { createFromTemplate } from '../actions/board-templates';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { noQuery } from '../http/strict-requests';

const templateParams = z.object({ template: z.string().max(100) });

/** The templates as the console shows them: parsed once, the same for every account. */
const SUMMARIES = BOARD_TEMPLATES.map((template) =>
  boardTemplateSchema.parse({
    id: template.id,
    name: template.name,
    description: template.description,
    board: boardExportSchema.parse(template.board),
    script: {
      name: template.script.name,
      interval: template.script.interval,
      feeds: template.script.feeds,
    },
  }),
);

/** The ready boards (src/shared/templates/): listed with their sample data, and made in one call. */
export function boardTemplateRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/board-templates',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['boards'],
          summary:
            'Lists the ready boards a new board can be made from, each with its widgets and sample data, and the script it comes with',
          querystring: noQuery,
          response: { 200: z.array(boardTemplateSchema) },
        },
      },
      async () => SUMMARIES,
    );

    app.post(
      '/boards/from-template/:template',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['boards'],
          summary:
            'Creates a board from a template: its widgets, new flows with the sample data, and a disabled script that shows how to feed one',
          params: templateParams,
          body: fromTemplateSchema,
          response: { 201: z.object({ board: boardSchema, script: scriptSchema }) },
        },
      },
      async (request, reply) => {
        const template = findTemplate(request.params.template);
        if (!template) throw notFound(`board template ${request.params.template}`);
        const created = await createFromTemplate(ctx, template, request.body.name);
        return reply.status(201).send(created);
      },
    );
  };
}
