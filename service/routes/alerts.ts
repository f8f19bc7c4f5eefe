import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  alertDestinationCreateSchema,
  alertDestinationSchema,
  alertRuleCreateSchema,
  alertRuleSchema,
  alertSchema,
} from '../../src/shared/alert';
import { idSchema } from '../../src/shared/common';
import {
  createAlertDestination,
  createAlertRule,
  deleteAlertDestination,
  deleteAlertRule,
} from '../actions/alerts';
import { accountOrDefault } from '../accounts/scope';
import type { ServiceContext } from '../context';
import { resourceRoutes } from '../http/resource-routes';
import { noQuery } from '../http/strict-requests';
import { AlertDestinationRepository } from '../repositories/alert-destinations';
import { AlertRuleRepository } from '../repositories/alert-rules';
import { AlertRepository } from '../repositories/alerts';
import { boundDevice } from '../visibility/scope';

const idParams = z.object({ id: idSchema });

/**
 * A token bound to one screen sees nothing of alerts: they name the account's other screens and
 * where its operators are told (visibility/scope.ts).
 */
const unlessBound = <T>(read: () => Promise<T[]>) =>
  boundDevice() === undefined ? read() : Promise.resolve([]);

/** Alerts (docs/alerts.md): where they go, when they fire, and what fired. */
export function alertRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const destinations = new AlertDestinationRepository(ctx.db);
  const rules = new AlertRuleRepository(ctx.db);
  const alerts = new AlertRepository(ctx.db);

  return async (app) => {
    resourceRoutes(app, {
      path: '/alert-destinations',
      tag: 'alerts',
      noun: 'alert destination',
      params: idParams,
      item: alertDestinationSchema,
      list: {
        summary: 'Lists where alerts go, oldest first; a webhook secret is never shown (has_secret)',
        permission: 'read',
        read: () => unlessBound(() => destinations.list()),
      },
      create: {
        summary:
          'Adds where alerts go: a signed JSON webhook, e-mail (needs --smtp-url), or a Slack or Teams incoming webhook',
        permission: 'write',
        body: alertDestinationCreateSchema,
        run: (body) => createAlertDestination(ctx, body),
      },
      delete: {
        summary: 'Deletes an alert destination; the rules that sent to it no longer do',
        permission: 'delete',
        run: (id) => deleteAlertDestination(ctx, id),
      },
    });

    resourceRoutes(app, {
      path: '/alert-rules',
      tag: 'alerts',
      noun: 'alert rule',
      params: idParams,
      item: alertRuleSchema,
      list: {
        summary: 'Lists the alert rules, oldest first',
        permission: 'read',
        read: () => unlessBound(() => rules.list()),
      },
      create: {
        summary:
          'Adds an alert rule: screens offline or failing to show items for after_seconds (all, a group, or one), a script failing `failures` runs in a row (all, or one), or a service node unable to write its store for after_seconds',
        permission: 'write',
        body: alertRuleCreateSchema,
        run: (body) => createAlertRule(ctx, body),
      },
      delete: {
        summary: 'Deletes an alert rule, with its incidents and their messages',
        permission: 'delete',
        run: (id) => deleteAlertRule(ctx, id),
      },
    });

    app.get(
      '/alerts',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['alerts'],
          summary: 'Lists the incidents, newest first (the last 500), with how each message went',
          querystring: noQuery,
          response: { 200: z.array(alertSchema) },
        },
      },
      () =>
        unlessBound(async () => [
          // Open node.unwritable incidents live in this node's memory until the store takes them.
          ...ctx.jobs.nodeAlerts(accountOrDefault()),
          ...(await alerts.list()),
        ]),
    );
  };
}
