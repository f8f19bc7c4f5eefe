import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SCREENSHOT_MAX_BYTES, screenshotInfoSchema } from '../../src/shared/command';
import { tagSchema } from '../../src/shared/common';
import { deviceNotFound } from '../actions/commands';
import { storeScreenshot } from '../actions/screenshots';
import type { ServiceContext } from '../context';
import { DomainError } from '../domain/errors';
import { HttpError } from '../http/errors';
import { DeviceRepository } from '../repositories/devices';
import { ScreenshotRepository } from '../repositories/screenshots';

const tagParams = z.object({ tag: tagSchema });

/** The header that tells when the screenshot answered was taken (ISO 8601). */
export const SCREENSHOT_AT_HEADER = 'x-screenshot-at';

/** The newest screenshot of each device, as the device uploads it (docs/api/commands.md). */
export function screenshotRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const screenshots = new ScreenshotRepository(ctx.db);
  const devices = new DeviceRepository(ctx.db);

  return async (app) => {
    // This plugin's routes alone take a PNG body, as it is: no other route parses one.
    app.addContentTypeParser('image/png', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

    app.put(
      '/devices/:tag/screenshot',
      {
        config: { permission: 'devices:write', audit: false },
        bodyLimit: SCREENSHOT_MAX_BYTES,
        schema: {
          tags: ['commands'],
          summary:
            'The device stores a screenshot (the body: an image/png, up to 8 MiB); it replaces the last',
          params: tagParams,
          response: { 200: screenshotInfoSchema },
        },
      },
      async (request) => {
        const { tag } = request.params;
        if (!Buffer.isBuffer(request.body)) {
          throw new HttpError(
            415,
            'unsupported_media_type',
            'a screenshot is sent as content-type image/png',
          );
        }
        return storeScreenshot(ctx, tag, request.body);
      },
    );

    app.get(
      '/devices/:tag/screenshot',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['commands'],
          summary: `Returns the device's newest screenshot as image/png, the time it was taken in \`${SCREENSHOT_AT_HEADER}\``,
          params: tagParams,
        },
      },
      async (request, reply) => {
        const { tag } = request.params;
        const screenshot = await screenshots.newest(tag);
        if (!screenshot) {
          if (!(await devices.findByTag(tag))) throw deviceNotFound(tag);
          throw new DomainError(
            'not_found',
            `device ${tag} has no screenshot yet: send it a "screenshot" command`,
          );
        }
        return reply
          .type('image/png')
          .header(SCREENSHOT_AT_HEADER, screenshot.info.taken_at)
          .header('x-screenshot-width', String(screenshot.info.width))
          .header('x-screenshot-height', String(screenshot.info.height))
          .header('cache-control', 'no-store')
          .send(Buffer.from(screenshot.png.buffer, screenshot.png.byteOffset, screenshot.png.byteLength));
      },
    );
  };
}
