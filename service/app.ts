import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { TOKEN_SCOPES } from '../src/shared/token';
import { sessionOf } from './actions/users';
import { ensureDefaultChannel } from './accounts/accounts';
import {
  createContext,
  DEFAULT_CONFIG,
  systemClock,
  withTimers,
  type ServiceConfig,
  type ServiceContext,
  type TimeSource,
} from './context';
import type { Database } from './db/database';
import { grants } from './http/auth';
import { installAuth } from './http/auth-hook';
import { installBodyParsing } from './http/body-parsing';
import { answerSerializer, checksAnswersByDefault } from './http/answers';
import { boundClose } from './http/connections';
import { deviceView } from './http/device-scope';
import { docsPage } from './http/docs-page';
import { lingerOnUnreadBodies, type LingerBounds } from './http/linger';
import { answerRouterError, installErrorHandling, PATH_PARAM_MAX } from './http/errors';
import { MdnsAnnouncement, type MdnsOptions } from './jobs/mdns';
import { serviceJobs, type ServiceJobs } from './jobs/service-jobs';
import { attachRealtime, type Hub } from './realtime/hub';
import { boardContentRoutes } from './routes/board-content';
import { boardTemplateRoutes } from './routes/board-templates';
import { boardRoutes } from './routes/boards';
import { channelMetricRoutes } from './routes/channel-metrics';
import { channelRoutes } from './routes/channels';
import { commandRoutes } from './routes/commands';
import { consoleRoutes } from './routes/console';
import { deviceHistoryRoutes } from './routes/device-history';
import { deviceRoutes } from './routes/devices';
import { flowRoutes } from './routes/flows';
import { groupRoutes } from './routes/groups';
import { syncGroupRoutes } from './routes/sync-groups';
import { healthRoutes } from './routes/health';
import { mapTileRoutes } from './routes/map-tiles';
import { mediaRoutes } from './routes/media';
import { releaseRoutes } from './routes/releases';
import { metricRoutes } from './routes/metrics';
import { notificationRoutes } from './routes/notifications';
import { pairingRoutes } from './routes/pairings';
import { playReportRoutes } from './routes/play-reports';
import { playRoutes } from './routes/plays';
import { playlistRoutes } from './routes/playlists';
import { screenSettingsRoutes } from './routes/screen-settings';
import { screenshotRoutes } from './routes/screenshots';
import { scriptRoutes } from './routes/scripts';
import { scriptSecretRoutes } from './routes/script-secrets';
import { sessionRoutes } from './routes/session';
import { tokenRoutes } from './routes/tokens';
import { userRoutes } from './routes/users';
import { webOptionsRoutes } from './routes/web-options';
import { accountRoutes } from './routes/account';
import { alertRoutes } from './routes/alerts';
import { overrideRoutes } from './routes/overrides';
import { capFeedRoutes } from './routes/cap-feeds';
import { dataSourceRoutes } from './routes/data-sources';
import { auditRoutes } from './routes/audit';
import { ssoRoutes } from './routes/sso';
import { closeSqlPools } from './data-sources/kinds/sql-kinds';
import { widgetRoutes } from './routes/widgets';

export interface AppOptions {
  /** An open, migrated store (see db/open.ts). The app does not close it. */
  db: Database;
  config?: Partial<ServiceConfig>;
  /** The real time by default; one that only tells the time keeps the real timers. */
  clock?: TimeSource;
  logger?: FastifyServerOptions['logger'];
  /** How long requests under way may hold `close()` before their connections are cut (http/connections.ts). */
  closeGraceMs?: number;
  /** How long and how much of a refused body is still read before its connection is cut (http/linger.ts). */
  linger?: LingerBounds;
  /**
   * Announce the service over mDNS/DNS-SD once it listens (jobs/mdns.ts). Off unless given:
   * server.ts turns it on (`--no-mdns` turns it off), tests only on loopback.
   */
  mdns?: MdnsOptions;
  /** The built console to serve (routes/console.ts); dist/console by default. */
  consoleDir?: string;
  /**
   * Whether answers are checked against their routes' schemas on the way out (http/answers.ts):
   * by default everywhere but in production (NODE_ENV=production).
   */
  checkAnswers?: boolean;
}

/** The version of the API, in the OpenAPI description and the mDNS announcement. */
const API_VERSION = '5.2.0';

export type App = FastifyInstance & {
  wallboard: ServiceContext & { jobs: ServiceJobs };
  /** The socket.io server devices connect to. */
  realtime: Hub;
};

const ROUTES = [
  healthRoutes,
  sessionRoutes,
  ssoRoutes,
  userRoutes,
  tokenRoutes,
  flowRoutes,
  channelRoutes,
  notificationRoutes,
  metricRoutes,
  channelMetricRoutes,
  boardRoutes,
  boardTemplateRoutes,
  boardContentRoutes,
  widgetRoutes,
  deviceRoutes,
  screenSettingsRoutes,
  deviceHistoryRoutes,
  pairingRoutes,
  commandRoutes,
  screenshotRoutes,
  playRoutes,
  playReportRoutes,
  playlistRoutes,
  groupRoutes,
  syncGroupRoutes,
  alertRoutes,
  overrideRoutes,
  capFeedRoutes,
  dataSourceRoutes,
  auditRoutes,
  mediaRoutes,
  releaseRoutes,
  scriptRoutes,
  scriptSecretRoutes,
  webOptionsRoutes,
  accountRoutes,
  mapTileRoutes,
];

/** Each operation says what its token needs (checked by the scope tests against every route). */
const documentPermission: typeof jsonSchemaTransform = (input) => {
  const result = jsonSchemaTransform(input);
  const permission = input.route.config?.permission;
  if (!permission) return result;
  const schema = result.schema as { description?: string };
  const scopes = TOKEN_SCOPES.filter(
    (scope) =>
      permission !== 'public' &&
      grants(scope, permission) &&
      (!input.route.config?.fullOnly || scope === 'full'),
  );
  const line =
    permission === 'public'
      ? 'Needs no token.'
      : `Permission: \`${permission}\` (scopes: ${scopes.join(', ')}).`;
  return {
    ...result,
    schema: {
      ...schema,
      description: schema.description ? `${schema.description}\n\n${line}` : line,
      ...(permission === 'public' ? { security: [] } : {}),
    },
  };
};

/** Builds the whole service without listening: tests call `inject`, server.ts calls `listen`. */
export async function buildApp(options: AppOptions): Promise<App> {
  const config = { ...DEFAULT_CONFIG, ...options.config };
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy ?? false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: PATH_PARAM_MAX },
    frameworkErrors: answerRouterError,
  }).withTypeProvider<ZodTypeProvider>();
  const ctx = createContext(
    options.db,
    config,
    withTimers(options.clock ?? systemClock),
    app.log,
    serviceJobs,
  );
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializer(options.checkAnswers ?? checksAnswersByDefault()));
  // JSON only, read as the original product's clients send it (http/body-parsing.ts).
  installBodyParsing(app);
  installErrorHandling(app, (why) => ctx.node.writesRefused(why, ctx.clock.now()));
  // Registered (awaited) first, so that the cookies are parsed before the auth hook reads them.
  await app.register(cookie);
  installAuth(app, ctx.auth, (secret) => sessionOf(ctx, secret), deviceView, ctx.db);
  // Before boundClose: its `Connection: close` while the app closes must win over the linger's.
  lingerOnUnreadBodies(app, options.linger);
  boundClose(app, options.closeGraceMs);

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Wallboard service',
        version: API_VERSION,
        description:
          'Boards, flows, channels, notifications, devices and tokens, with the extensions the client needs.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          basic: { type: 'http', scheme: 'basic', description: 'the token as user name, any password' },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'wb_session',
            description: 'a signed-in user (POST /session); writes also need the x-wallboard-csrf header',
          },
        },
      },
      security: [{ bearer: [] }, { basic: [] }, { session: [] }],
    },
    transform: documentPermission,
  });
  docsPage(app);
  app.get('/openapi.json', { config: { permission: 'public' }, schema: { hide: true } }, async () =>
    app.swagger(),
  );

  await ensureDefaultChannel(options.db);
  for (const routes of ROUTES) await app.register(routes(ctx));
  await app.register(consoleRoutes(options.consoleDir));
  const realtime = attachRealtime(app, ctx);
  // The background jobs run while the app is ready. Their stop begins with the close, so that a
  // script run under way is answered 503 at once instead of holding it, and ends before the
  // close does: a pass under way finishes before the store is closed.
  app.addHook('onReady', async () => {
    await ctx.jobs.start();
  });
  if (options.mdns) {
    // Started once the port is known, which is after the other jobs.
    const port = () => (app.server.address() as { port: number }).port;
    const mdns = new MdnsAnnouncement(options.mdns, { version: API_VERSION, path: '/' }, port, ctx.log);
    app.addHook('onListen', async () => mdns.start());
    app.addHook('preClose', async () => mdns.stop());
  }
  app.addHook('preClose', async () => {
    // Not awaited here (the server's close goes on meanwhile); a failure surfaces in onClose.
    ctx.jobs.stop().catch(() => undefined);
  });
  app.addHook('onClose', async () => {
    await ctx.jobs.stop();
    // A test query on a node that does not lead may have opened a database's pool.
    await closeSqlPools();
  });
  return Object.assign(app, { wallboard: ctx, realtime }) as unknown as App;
}
