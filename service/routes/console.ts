import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { CONSOLE_BASE, CSP_NONCE_PLACEHOLDER } from '../../src/shared/console-page';
import { CUSTOM_FRAME_PAGES, CUSTOM_FRAME_SCRIPT, customFramePolicy } from '../../src/shared/custom-frame';
import { HttpError } from '../http/errors';

/** The built console (`npm run build`): ../../dist/console from service/routes/ and dist/service/ alike. */
export const CONSOLE_DIR = fileURLToPath(new URL('../../dist/console', import.meta.url));

/**
 * The console's policy: its own scripts, styles and connections only; styles written at run time
 * carry the page's nonce (no 'unsafe-inline', no eval); it cannot be framed by another site.
 */
function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    // The custom widget's host pages, for the board editor's previews (src/shared/custom-frame.ts).
    "frame-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const NOT_BUILT =
  'the console is not built here: run `npm run build` (`npm start` and `npm run service` build it)';

/**
 * The console: its page at `/` and at every path under /console/ (its own routes, drawn in the
 * browser), each answer with a fresh nonce; its files under /console/assets/, whose names carry a
 * hash of their content and so are cached for good.
 */
export function consoleRoutes(dir: string = CONSOLE_DIR): FastifyPluginAsync {
  return async (app) => {
    // Registered below by @fastify/static, which knows no permissions: the files are public.
    app.addHook('onRoute', (route) => {
      route.config = { ...route.config, permission: 'public' };
    });
    await app.register(fastifyStatic, {
      root: join(dir, 'assets'),
      prefix: `${CONSOLE_BASE}assets/`,
      decorateReply: false,
      schemaHide: true,
      immutable: true,
      maxAge: '365d',
      // The brotli and gzip copies the build wrote beside each file (tools/compress.ts), picked by
      // the request's Accept-Encoding (br, then gzip, then the file), with `Vary: accept-encoding`.
      preCompressed: true,
      index: false,
      // A missing folder (a service started before the console was built) is a 404, not a crash.
      suppressWarning: true,
    });

    const page = async (_request: unknown, reply: FastifyReply) => {
      const html = await readFile(join(dir, 'index.html'), 'utf8').catch(() => null);
      // A service run from its sources (the tests) has no console unless it was built.
      if (html === null) throw new HttpError(404, 'not_found', NOT_BUILT);
      const nonce = randomBytes(16).toString('base64');
      return reply
        .header('content-security-policy', contentSecurityPolicy(nonce))
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(html.replaceAll(CSP_NONCE_PLACEHOLDER, nonce));
    };
    const options = { config: { permission: 'public' as const }, schema: { hide: true } };
    // The custom widget's host pages and their script, under the policy each page needs.
    for (const name of [...Object.values(CUSTOM_FRAME_PAGES), CUSTOM_FRAME_SCRIPT]) {
      app.get(`${CONSOLE_BASE}${name}`, options, async (_request, reply) => {
        const body = await readFile(join(dir, name), 'utf8').catch(() => null);
        if (body === null) throw new HttpError(404, 'not_found', NOT_BUILT);
        const policy = customFramePolicy(name);
        if (policy) reply.header('content-security-policy', policy);
        return reply
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'no-cache')
          .type(name.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/html; charset=utf-8')
          .send(body);
      });
    }
    app.get('/', options, page);
    app.get(CONSOLE_BASE.slice(0, -1), options, page);
    app.get(`${CONSOLE_BASE}*`, options, page);
  };
}
