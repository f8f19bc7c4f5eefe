import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../src/shared/api-error';
import { idSchema } from '../../src/shared/common';
import { userCreateSchema, userRecordSchema, userUpdateSchema } from '../../src/shared/user';
import { addUser, changeUser, listUsers, removeUser } from '../actions/users';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';

const idParams = z.object({ id: idSchema });

const WHO = 'Only a signed-in admin or a full token; other roles and tokens get 403';

/**
 * The people who sign in to the console (docs/api/users.md), for admins: the same actions as the
 * `user` commands of the CLI, plus the rule that the last admin stays.
 */
export function userRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/users',
      {
        // People see who else signs in (a viewer sees everything, changes nothing); of the tokens
        // only a full one: readonly and affiliated ones sit on screens, and logins name people.
        config: { permission: 'users:read' },
        schema: {
          tags: ['users'],
          summary:
            "Lists the users of the caller's account, by login (no passwords). Any signed-in user or a full token; other tokens get 403",
          response: { 200: z.array(userRecordSchema) },
        },
      },
      async () => listUsers(ctx.db),
    );

    app.post(
      '/users',
      {
        config: { permission: 'users' },
        schema: {
          tags: ['users'],
          summary: `Creates a user who signs in with this login and password, with a role (admin, editor, publisher, viewer) and the screen groups it is kept to (none: the whole account). ${WHO}`,
          body: userCreateSchema,
          response: { 201: userRecordSchema, 409: apiErrorSchema },
        },
      },
      async (request, reply) => reply.status(201).send(await addUser(ctx, request.body)),
    );

    app.patch(
      '/users/:id',
      {
        config: { permission: 'users' },
        schema: {
          tags: ['users'],
          summary: `Changes a user's role, groups or password; a new password signs the user out everywhere. The last admin cannot be given another role (409). ${WHO}`,
          params: idParams,
          body: userUpdateSchema,
          response: { 200: userRecordSchema, 404: apiErrorSchema, 409: apiErrorSchema },
        },
      },
      async (request) => {
        const user = await changeUser(ctx, request.params.id, request.body);
        if (!user) throw notFound(`user ${request.params.id}`);
        return user;
      },
    );

    app.delete(
      '/users/:id',
      {
        config: { permission: 'users' },
        schema: {
          tags: ['users'],
          summary: `Deletes a user and signs it out everywhere; the last admin cannot be deleted (409). ${WHO}`,
          params: idParams,
          response: { 204: z.null(), 404: apiErrorSchema, 409: apiErrorSchema },
        },
      },
      async (request, reply) => {
        if (!(await removeUser(ctx, request.params.id))) throw notFound(`user ${request.params.id}`);
        return reply.status(204).send(null);
      },
    );
  };
}
