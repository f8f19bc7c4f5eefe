import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tagSchema } from '../../src/shared/common';
import { playingSchema } from '../../src/shared/playing';
import { scheduledAtSchema, screenSettingsSchema } from '../../src/shared/screen-settings';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { scheduledAt } from '../domain/screen-settings';
import { webOptionsOf } from '../domain/web-options';
import { DeviceRepository } from '../repositories/devices';
import { OverrideRepository } from '../repositories/overrides';
import { PlayingReader } from '../repositories/playing';
import { ReleaseOffersReader } from '../repositories/release-offers';
import { ScreenSettingsRepository } from '../repositories/screen-settings';
import { SyncGroupRepository } from '../repositories/sync-groups';

const tagParams = z.object({ tag: tagSchema });

/** What a screen plays and how, resolved with its group's settings (docs/api/groups.md). */
export function screenSettingsRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const settings = new ScreenSettingsRepository(ctx.db);
  const overrides = new OverrideRepository(ctx.db);
  const syncGroups = new SyncGroupRepository(ctx.db);
  const devices = new DeviceRepository(ctx.db);
  const playing = new PlayingReader(ctx.db);
  const releases = new ReleaseOffersReader(ctx.db);

  async function settingsOf(tag: string) {
    const read = await settings.ofDevice(tag);
    if (!read) throw notFound(`device ${tag}`);
    return read;
  }

  return async (app) => {
    app.get(
      '/devices/:tag/settings',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['devices'],
          summary:
            "Returns what the device plays and how: each setting its own, else its group's, else the default, with where each comes from",
          params: tagParams,
          response: { 200: screenSettingsSchema },
        },
      },
      async (request) => {
        const { tag } = request.params;
        const resolved = (await settingsOf(tag)).settings;
        return {
          ...resolved,
          web: webOptionsOf(ctx.config),
          override: await overrides.shownOn({ tag, group_id: resolved.group_id }, ctx.clock.now()),
          sync: await syncGroups.screenSync(tag),
          // The player releases offered (docs/updates.md): a pin, else the newest rollout reaching it.
          release: (await releases.offersOf(tag)) ?? { shell: null, web: null },
        };
      },
    );

    app.get(
      '/devices/:tag/playing',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['devices'],
          summary:
            'Answers what the device should show now by its rules (override, power window, wake, schedule, playlist) beside what its last heartbeat says it shows, and whether they agree',
          params: tagParams,
          response: { 200: playingSchema },
        },
      },
      async (request) => {
        const { tag } = request.params;
        const device = await devices.findByTag(tag);
        if (!device) throw notFound(`device ${tag}`);
        const showing = (await devices.diagnostics(tag))?.showing;
        const seen = { ...device, showing: typeof showing === 'string' ? showing : null };
        const answer = (await playing.of([seen], await playing.prepare(ctx.clock.now()))).get(tag);
        if (!answer) throw notFound(`device ${tag}`);
        return answer;
      },
    );

    app.get(
      '/devices/:tag/schedule/at',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['devices'],
          summary:
            'Answers what the device plays at a time (now without one), and whether it is off then, in its time zone: the one set, else the one it reports, else UTC',
          params: tagParams,
          querystring: z.object({
            time: z.iso
              .datetime({
                offset: true,
                error: 'must be an ISO 8601 time with its offset, such as 2026-11-23T18:00:00Z',
              })
              .optional(),
          }),
          response: { 200: scheduledAtSchema },
        },
      },
      async (request) => {
        const { settings: resolved, reportedTimeZone } = await settingsOf(request.params.tag);
        const { time } = request.query;
        const instant = time === undefined ? ctx.clock.now().getTime() : Date.parse(time);
        return scheduledAt(resolved, reportedTimeZone, instant);
      },
    );
  };
}
