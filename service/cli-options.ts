import proxyAddr from '@fastify/proxy-addr';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { tokenScopeSchema, type TokenScope } from '../src/shared/token';
import { webUrlSchema } from '../src/shared/common';
import { QUOTA_ARGS } from './accounts/quota-options';
import {
  accountCommand,
  inAccount,
  userCommand,
  type AccountCommand,
  type StoreChoice,
  type UserCommand,
} from './cli-commands';
import { DEFAULT_CONFIG, OSM_TILES, type ServiceConfig } from './context';
import { parseHttpAllow, type HttpAllowPolicy } from './scripts/destinations';

/** The sender of alert e-mails when `--smtp-from` is not given. */
const DEFAULT_SMTP_FROM = 'wallboard@localhost';

export const HELP = `Usage:
  npm run service -- [options]                      run the service
  npm run service -- token create --scope <scope>   print a new token's secret (once)
  npm run service -- user create --role <role> --login <login> [--password-stdin]
                                                    add a user who signs in to the console: role
                                                    admin, editor, publisher or viewer; the
                                                    password is read from stdin, or generated
                                                    and printed once
  npm run service -- user list                      list the users of every account (login, role,
                                                    created, account)
  npm run service -- user delete <login>            delete a user and sign it out
  npm run service -- user password <login> [--password-stdin]
                                                    set a new password (read or generated) and
                                                    sign the user out everywhere
  npm run service -- user link <login>              print a one-time sign-in link (15 minutes) to
                                                    the console at --host and --port
  npm run service -- account create --name <name> [quotas]
                                                    make an account (a hosted service's customer) with
                                                    its default channel; prints its id, for --account
  npm run service -- account update <id> [--name <name>] [quotas]
                                                    rename an account or change its quotas
  npm run service -- account list                   list the accounts (id, name, quotas)
  npm run service -- backup <file>                  write a consistent copy of the embedded store
                                                    (the service may be running) to a new file
  npm run service -- restore <file>                 put a backup back as the embedded store (the
                                                    service stopped); the store it replaces is kept

Options:
  --port <port>            port to listen on (default 8787; 0 picks a free one)
  --host <address>         address to listen on (default 127.0.0.1)
  --no-mdns                do not announce the service on the local network over mDNS/DNS-SD
                           (_wallboard._tcp, so that screens find it without its address); it is
                           announced unless it listens on loopback only
  --data <dir>             folder of the embedded store (default ./.wallboard-data)
  --database-url <url>     use PostgreSQL (postgres://user:pass@host/db) instead of the embedded store
  --offline-after <s>      seconds without a heartbeat before a device is offline (default ${DEFAULT_CONFIG.offlineAfterSeconds})
  --body-limit <bytes>     largest request body (default ${DEFAULT_CONFIG.bodyLimit})
  --media-max-mb <mb>      largest file of the media library (default ${DEFAULT_CONFIG.mediaMaxBytes / 1024 / 1024});
                           on the embedded store the files are kept in <data>/media
  --trust-proxy <list>     believe X-Forwarded-For from these proxies (addresses, CIDR ranges or
                           "loopback", comma-separated), so per-address limits count clients
  --drain-seconds <s>      on SIGTERM, say so on /health (503) for this long before closing, so that a
                           load balancer stops sending here first (default 0; 5 with --database-url)
  --log-level <level>      fatal, error, warn, info, debug or silent (default info)
  --scripts-http-allow <list>
                           where scripts' wallboard/http may connect besides public addresses:
                           comma-separated loopback, private and CIDR ranges such as 10.1.0.0/16
                           (default none: public addresses only)
  --script-seconds-per-hour <s>
                           script time each account may use per hour: the wall time of its runs,
                           each from the moment it has a run slot until it ends (which bounds its
                           CPU use); past it the account's runs are refused until the hour frees
                           some (default ${DEFAULT_CONFIG.scriptSecondsPerHour}: one of the two run slots all hour)
  --scripts-enabled-per-account <n>
                           scripts each account may have enabled at once (default ${DEFAULT_CONFIG.scriptsEnabledPerAccount})
  --map-tiles <template>   where maps' tiles come from, a URL template with {z}, {x} and {y} (default
                           ${DEFAULT_CONFIG.mapTiles?.urlTemplate}, OpenStreetMap's, within
                           its usage policy: the service fetches each tile once and caches it);
                           "none": no tile source, maps draw their shapes on a blank ground
  --map-attribution <text> the tile source's attribution, shown on every map (default "${DEFAULT_CONFIG.mapTiles?.attribution}")
  --map-max-zoom <n>       the tile source's deepest zoom level (default ${DEFAULT_CONFIG.mapTiles?.maxZoom})
  --weather-url <url>      the Open-Meteo compatible forecast API weather widgets are fed from
                           (default ${DEFAULT_CONFIG.weatherUrl})
  --smtp-url <url>         the SMTP server e-mail alerts go through (docs/alerts.md):
                           smtp://host:port (STARTTLS when the server offers it) or smtps://host:port
                           (TLS), with user:password@ before the host when it asks; without it
                           e-mail destinations are refused
  --smtp-from <address>    the sender of alert e-mails, an address or "Name <address>" (default
                           ${DEFAULT_SMTP_FROM})
  --allow-http-media       media, backgrounds and notification sounds may be plain http URLs (a LAN
                           without TLS); https only by default
  --custom-widgets-network custom widgets may reach https addresses (default: no network at all)
  --no-private-data-sources
                           no data source may reach loopback or private addresses, even one an
                           admin switched to "may reach this network" (a hosted service's
                           customers must not reach its own network); allowed per source by default
  --events-keep <n>        realtime events kept for devices that reconnect (default ${DEFAULT_CONFIG.eventRetention})
  --events-keep-mb <mb>    ... and at most this many MB of them (default ${DEFAULT_CONFIG.eventRetentionBytes / 1024 / 1024})
  --notifications-keep <n> notifications kept, the newest (default ${DEFAULT_CONFIG.notificationRetention})
  --notifications-keep-days <days>
                           ... and none older than this (default ${DEFAULT_CONFIG.notificationRetentionDays})
  --audit-retention-days <days>
                           audit trail entries kept this many days (default ${DEFAULT_CONFIG.auditRetentionDays})
  --pairings-max <n>       pairings live at once (default ${DEFAULT_CONFIG.pairing.liveMax}); when full, the oldest that no
                           screen has polled make room for new ones
  --pairings-per-address <n>
                           codes one client address (an IPv6 /64) may have waiting unclaimed
                           (default ${DEFAULT_CONFIG.pairing.perSource})
  --pairing-guesses-per-minute <n>
                           wrong codes POST /pairings/claim lets through per minute across the
                           service, after ${DEFAULT_CONFIG.pairing.wrongCodes.all.burst} at once (default ${DEFAULT_CONFIG.pairing.wrongCodes.all.perSecond * 60}; per token,
                           account and address the limits are smaller: docs/api.md, Pairing)
  --account <id>           with "token create" and "user create": the account it belongs to (default:
                           the default account, that of a single-account install); with "user
                           delete", "password" and "link": the account whose user it is, needed
                           when several accounts have a user of that login
  --scope <scope>          with "token create": full, readonly or affiliated
  --name <name>            with "token create": a note of what the token is for; with "account
                           create" and "account update": the account's name (unique)
  --media-mb <n>, --media-files <n>, --scripts <n>, --devices <n>, --users <n>
                           with "account create" and "account update": the account's quotas, the
                           most media (MB, files), scripts, devices and console users it may hold;
                           a create past one is refused (403 quota_exceeded). "unlimited" lifts one;
                           by default there is none
  --device <tag>           with "token create --scope affiliated": bind the token to that device, for
                           which alone it acts (a screen's own credential; pairing makes one too)
  --role <role>            with "user create": admin (acts as a full token) or viewer (as readonly)
  --login <login>          with "user create": the user's name or email (case-insensitive)
  --password-stdin         with "user create" and "user password": read the password from stdin
                           (its first line) instead of generating one
  -h, --help               show this help

Environment:
  WALLBOARD_ADMIN_TOKEN    when set at start, a token with this secret and scope "full" exists afterwards
  WALLBOARD_SECRETS_KEY    32 bytes in base64: the key scripts' secrets are sealed with (the same on
                           every node of a PostgreSQL service; the embedded store keeps its own
                           in <data>/secrets.key)
`;

export type Command =
  | { kind: 'help' }
  | {
      kind: 'serve';
      port: number;
      host: string;
      store: StoreChoice;
      config: ServiceConfig;
      logLevel: string;
      /** Announce over mDNS: asked (no --no-mdns) and reachable from the network (not loopback only). */
      mdns: boolean;
      /** How long a stopping node says it drains before it closes (`--drain-seconds`). */
      drainSeconds: number;
    }
  | {
      kind: 'token-create';
      store: StoreChoice;
      scope: TokenScope;
      name: string;
      deviceTag?: string;
      accountId?: string;
    }
  | UserCommand
  | AccountCommand
  | { kind: 'backup'; dataDir: string; file: string }
  | { kind: 'restore'; dataDir: string; file: string };

const MB = 1024 * 1024;

/** `--trust-proxy`: the load balancers' addresses or ranges; proxy-addr says which it cannot read. */
function trustedProxies(value: string | undefined): string[] | null {
  if (value === undefined) return null;
  const list = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  try {
    proxyAddr.compile(list);
  } catch (error) {
    throw new Error(`--trust-proxy: ${(error as Error).message}`, { cause: error });
  }
  if (list.length === 0) throw new Error('--trust-proxy needs addresses, ranges or "loopback"');
  return list;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function wholeNumber(name: string, value: string, min: number, max: number): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < min || number > max) {
    throw new Error(`--${name} must be a whole number from ${min} to ${max}, not "${value}"`);
  }
  return number;
}

/** A service listening only on loopback cannot be reached by the screens an announcement would tell. */
function loopbackOnly(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function httpAllow(list: string): HttpAllowPolicy {
  try {
    return parseHttpAllow(list);
  } catch (error) {
    throw new Error(`--scripts-http-allow: ${(error as Error).message}`, { cause: error });
  }
}

/** `--smtp-url` and `--smtp-from`: the server of e-mail alerts, or none. */
function smtp(values: { 'smtp-url'?: string; 'smtp-from'?: string }): ServiceConfig['smtp'] {
  const url = values['smtp-url'];
  if (url === undefined) {
    if (values['smtp-from'] !== undefined) throw new Error('--smtp-from needs --smtp-url');
    return null;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--smtp-url must be an smtp:// or smtps:// URL, not "${url}"`);
  }
  if (!['smtp:', 'smtps:'].includes(parsed.protocol) || !parsed.hostname) {
    throw new Error(`--smtp-url must be an smtp:// or smtps:// URL with a host, not "${parsed.protocol}//…"`);
  }
  const from = values['smtp-from'] ?? DEFAULT_SMTP_FROM;
  // An address, or a name with it: `Wallboard <alerts@example.com>`.
  if (!/^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/.test(from)) {
    throw new Error(`--smtp-from must be an e-mail address, not "${from}"`);
  }
  return { url, from };
}

function webUrl(name: string, value: string): string {
  const parsed = webUrlSchema.safeParse(value);
  if (!parsed.success) throw new Error(`--${name} must be an http or https URL, not "${value}"`);
  return value;
}

/** `--map-tiles` (a template, or "none") with its attribution and deepest zoom. */
function mapTiles(values: {
  'map-tiles'?: string;
  'map-attribution'?: string;
  'map-max-zoom'?: string;
}): ServiceConfig['mapTiles'] {
  const template = values['map-tiles'];
  if (template === 'none') return null;
  const urlTemplate = template ?? OSM_TILES.urlTemplate;
  if (!['{z}', '{x}', '{y}'].every((part) => urlTemplate.includes(part))) {
    throw new Error(
      `--map-tiles must be a URL template with {z}, {x} and {y}, or "none", not "${urlTemplate}"`,
    );
  }
  webUrl('map-tiles', urlTemplate.replace(/\{[a-z]\}/g, '0'));
  const maxZoom = values['map-max-zoom'];
  return {
    urlTemplate,
    // Another source's attribution is its own: the operator names it.
    attribution: values['map-attribution'] ?? (template === undefined ? OSM_TILES.attribution : ''),
    maxZoom: maxZoom === undefined ? OSM_TILES.maxZoom : wholeNumber('map-max-zoom', maxZoom, 0, 22),
  };
}

/** `--pairings-max`, `--pairings-per-address`, `--pairing-guesses-per-minute`. */
function pairingLimits(values: {
  'pairings-max': string;
  'pairings-per-address': string;
  'pairing-guesses-per-minute': string;
}): ServiceConfig['pairing'] {
  const defaults = DEFAULT_CONFIG.pairing;
  const perMinute = wholeNumber('pairing-guesses-per-minute', values['pairing-guesses-per-minute'], 1, 6000);
  return {
    liveMax: wholeNumber('pairings-max', values['pairings-max'], 10, 10_000_000),
    perSource: wholeNumber('pairings-per-address', values['pairings-per-address'], 1, 10_000),
    wrongCodes: { ...defaults.wrongCodes, all: { ...defaults.wrongCodes.all, perSecond: perMinute / 60 } },
  };
}

/** Reads the command line; throws an Error with a message for the user on anything wrong. */
export function parseCommand(argv: string[]): Command {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    // For --no-mdns.
    allowNegative: true,
    options: {
      port: { type: 'string', default: '8787' },
      host: { type: 'string', default: '127.0.0.1' },
      mdns: { type: 'boolean', default: true },
      data: { type: 'string', default: '.wallboard-data' },
      'database-url': { type: 'string' },
      'offline-after': { type: 'string', default: String(DEFAULT_CONFIG.offlineAfterSeconds) },
      'body-limit': { type: 'string', default: String(DEFAULT_CONFIG.bodyLimit) },
      'media-max-mb': { type: 'string', default: String(DEFAULT_CONFIG.mediaMaxBytes / MB) },
      'log-level': { type: 'string', default: 'info' },
      'scripts-http-allow': { type: 'string', default: '' },
      'script-seconds-per-hour': { type: 'string', default: String(DEFAULT_CONFIG.scriptSecondsPerHour) },
      'scripts-enabled-per-account': {
        type: 'string',
        default: String(DEFAULT_CONFIG.scriptsEnabledPerAccount),
      },
      'map-tiles': { type: 'string' },
      'map-attribution': { type: 'string' },
      'map-max-zoom': { type: 'string' },
      'weather-url': { type: 'string', default: DEFAULT_CONFIG.weatherUrl },
      'smtp-url': { type: 'string' },
      'smtp-from': { type: 'string' },
      'drain-seconds': { type: 'string' },
      'trust-proxy': { type: 'string' },
      'allow-http-media': { type: 'boolean', default: false },
      'custom-widgets-network': { type: 'boolean', default: false },
      'no-private-data-sources': { type: 'boolean', default: false },
      'events-keep': { type: 'string', default: String(DEFAULT_CONFIG.eventRetention) },
      'events-keep-mb': { type: 'string', default: String(DEFAULT_CONFIG.eventRetentionBytes / MB) },
      'notifications-keep': { type: 'string', default: String(DEFAULT_CONFIG.notificationRetention) },
      'pairings-max': { type: 'string', default: String(DEFAULT_CONFIG.pairing.liveMax) },
      'pairings-per-address': { type: 'string', default: String(DEFAULT_CONFIG.pairing.perSource) },
      'pairing-guesses-per-minute': {
        type: 'string',
        default: String(DEFAULT_CONFIG.pairing.wrongCodes.all.perSecond * 60),
      },
      'notifications-keep-days': {
        type: 'string',
        default: String(DEFAULT_CONFIG.notificationRetentionDays),
      },
      'audit-retention-days': { type: 'string', default: String(DEFAULT_CONFIG.auditRetentionDays) },
      scope: { type: 'string' },
      name: { type: 'string', default: '' },
      device: { type: 'string' },
      role: { type: 'string' },
      login: { type: 'string' },
      account: { type: 'string' },
      ...QUOTA_ARGS,
      'password-stdin': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return { kind: 'help' };
  const store: StoreChoice = { dataDir: values.data };
  if (values['database-url']) {
    if (!/^postgres(ql)?:\/\//.test(values['database-url'])) {
      throw new Error('--database-url must be a postgres:// URL');
    }
    store.databaseUrl = values['database-url'];
  }
  const [command, sub, ...rest] = positionals;
  if (command === 'backup' || command === 'restore') {
    if (sub === undefined || rest.length) throw new Error(`the ${command} command is "${command} <file>"`);
    if (store.databaseUrl) {
      throw new Error(
        `${command} is for the embedded store; PostgreSQL has its own tools (pg_dump, pg_restore)`,
      );
    }
    return { kind: command, dataDir: values.data, file: sub };
  }
  if (command === 'user') return userCommand(store, positionals.slice(1), values);
  if (command === 'account') return accountCommand(store, positionals.slice(1), values);
  if (command === 'token') {
    if (sub !== 'create' || rest.length)
      throw new Error('the token command is "token create --scope <scope>"');
    const scope = tokenScopeSchema.safeParse(values.scope);
    if (!scope.success) throw new Error('--scope must be one of full, readonly, affiliated');
    if (values.device !== undefined && scope.data !== 'affiliated') {
      throw new Error('--device binds a token of scope affiliated only');
    }
    return {
      kind: 'token-create',
      store,
      scope: scope.data,
      name: values.name,
      ...(values.device === undefined ? {} : { deviceTag: values.device }),
      ...inAccount(values.account),
    };
  }
  if (command !== undefined) throw new Error(`unknown command "${positionals.join(' ')}"; see --help`);
  if (!LOG_LEVELS.includes(values['log-level'])) {
    throw new Error(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
  }
  return {
    kind: 'serve',
    port: wholeNumber('port', values.port, 0, 65535),
    host: values.host,
    store,
    logLevel: values['log-level'],
    mdns: values.mdns && !loopbackOnly(values.host),
    // Behind a load balancer (PostgreSQL, several nodes) long enough for its health checks to see it.
    drainSeconds: wholeNumber(
      'drain-seconds',
      values['drain-seconds'] ?? (store.databaseUrl ? '5' : '0'),
      0,
      300,
    ),
    config: {
      ...DEFAULT_CONFIG,
      offlineAfterSeconds: wholeNumber('offline-after', values['offline-after'], 1, 86400),
      eventRetention: wholeNumber('events-keep', values['events-keep'], 100, 10_000_000),
      eventRetentionBytes: wholeNumber('events-keep-mb', values['events-keep-mb'], 1, 1_000_000) * MB,
      notificationRetention: wholeNumber('notifications-keep', values['notifications-keep'], 1, 10_000_000),
      notificationRetentionDays: wholeNumber(
        'notifications-keep-days',
        values['notifications-keep-days'],
        1,
        36_500,
      ),
      auditRetentionDays: wholeNumber('audit-retention-days', values['audit-retention-days'], 1, 36_500),
      bodyLimit: wholeNumber('body-limit', values['body-limit'], 1024, 100 * 1024 * 1024),
      scriptsHttpAllow: httpAllow(values['scripts-http-allow']),
      // Two slots all hour is the most the service can run: a larger number limits nothing.
      scriptSecondsPerHour: wholeNumber(
        'script-seconds-per-hour',
        values['script-seconds-per-hour'],
        1,
        1_000_000,
      ),
      scriptsEnabledPerAccount: wholeNumber(
        'scripts-enabled-per-account',
        values['scripts-enabled-per-account'],
        0,
        1_000_000,
      ),
      mediaMaxBytes: wholeNumber('media-max-mb', values['media-max-mb'], 1, 1_000_000) * MB,
      mediaDir: store.databaseUrl ? null : join(values.data, 'media'),
      mapTiles: mapTiles(values),
      weatherUrl: webUrl('weather-url', values['weather-url']),
      httpMedia: values['allow-http-media'],
      customWidgetsNetwork: values['custom-widgets-network'],
      privateDataSources: !values['no-private-data-sources'],
      trustProxy: trustedProxies(values['trust-proxy']),
      pairing: pairingLimits(values),
      smtp: smtp(values),
    },
  };
}
