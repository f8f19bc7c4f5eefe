import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../src/shared/common';
import {
  SCRIPT_SECRET_VALUE_MAX,
  SCRIPT_SECRETS_MAX,
  scriptSecretNameSchema,
  scriptSecretPutSchema,
  scriptSecretSchema,
} from '../../src/shared/script-secret';
import { deleteScriptSecret, setScriptSecret } from '../actions/script-secrets';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { ScriptRepository } from '../repositories/scripts';
import { ScriptSecretRepository } from '../repositories/script-secrets';

const idParams = z.object({ id: idSchema });
const secretParams = z.object({ id: idSchema, name: scriptSecretNameSchema });

const scriptNotFound = (id: string) => notFound(`script ${id}`);

/** A script's named secrets (docs/scripts.md#secrets): values are written, never answered. */
export function scriptSecretRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const scripts = new ScriptRepository(ctx.db);
  const secrets = new ScriptSecretRepository(ctx.db, ctx.config.secretsKey);

  return async (app) => {
    app.get(
      '/scripts/:id/secrets',
      {
        config: { permission: 'scripts:read' },
        schema: {
          tags: ['scripts'],
          summary: "The script's secrets by name, with when each was set; never their values",
          params: idParams,
          response: { 200: z.array(scriptSecretSchema) },
        },
      },
      async (request) => {
        if (!(await scripts.get(request.params.id))) throw scriptNotFound(request.params.id);
        return secrets.list(request.params.id);
      },
    );

    app.put(
      '/scripts/:id/secrets/:name',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['scripts'],
          summary:
            `Sets a secret of the script (created, or its value replaced): its runs read it as \`secrets.NAME\`; ` +
            `at most ${SCRIPT_SECRETS_MAX} per script, ${SCRIPT_SECRET_VALUE_MAX} characters each`,
          params: secretParams,
          body: scriptSecretPutSchema,
          response: { 200: scriptSecretSchema, 201: scriptSecretSchema },
        },
      },
      async (request, reply) => {
        const { id, name } = request.params;
        // Through the scripts' own reading first: a script the caller may not read is not there.
        if (!(await scripts.get(id))) throw scriptNotFound(id);
        const set = await setScriptSecret(ctx, id, name, request.body.value);
        if (!set) throw scriptNotFound(id);
        return reply.code(set.created ? 201 : 200).send(set.secret);
      },
    );

    app.delete(
      '/scripts/:id/secrets/:name',
      {
        config: { permission: 'delete' },
        schema: {
          tags: ['scripts'],
          summary: 'Deletes a secret of the script; its next runs no longer have it',
          params: secretParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const { id, name } = request.params;
        if (!(await scripts.get(id))) throw scriptNotFound(id);
        if (!(await deleteScriptSecret(ctx, id, name))) throw notFound(`secret ${name} of script ${id}`);
        return reply.status(204).send(null);
      },
    );
  };
}
