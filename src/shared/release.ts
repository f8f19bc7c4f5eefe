import { z } from 'zod';
import { idSchema, timestampSchema } from './common';

/**
 * Releases of the player (docs/updates.md): the Electron shell (the files electron-builder's
 * generic provider writes: `latest*.yml`, the installers and their blockmaps) and the web
 * player's bundle (the renderer's built files). The service keeps them by channel; rollouts
 * decide which screens are offered which, and the device verifies every file by its sha512.
 */
export const releaseKindSchema = z.enum(['shell', 'web']);
export type ReleaseKind = z.infer<typeof releaseKindSchema>;

export const releaseChannelSchema = z.enum(['stable', 'beta']);
export type ReleaseChannel = z.infer<typeof releaseChannelSchema>;

/** A path inside a release: relative, `/`-separated, no `.` or `..` part, no backslash. */
export const releaseFileNameSchema = z
  .string()
  .min(1)
  .max(512)
  .refine(
    (name) =>
      !name.includes('\\') && name.split('/').every((part) => part !== '' && part !== '.' && part !== '..'),
    'must be a relative path without "." or ".." parts',
  );

/** One file of a release; `sha512` is base64, as electron-builder writes it in latest.yml. */
export const releaseFileSchema = z.object({
  name: releaseFileNameSchema,
  size: z.int().min(0),
  sha512: z.base64().length(88),
});
export type ReleaseFile = z.infer<typeof releaseFileSchema>;

/** Semantic version, as electron-updater compares them. */
export const releaseVersionSchema = z
  .string()
  .max(64)
  .regex(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/, 'must be a semantic version like 1.4.2');

/**
 * What a screen is told to run for one kind (in its resolved settings, `release`): the release
 * and where to fetch it. `base_url` is a path on the service (device token), under which every
 * file of the release is served by its name; for the shell it is electron-updater's generic
 * feed URL (it reads `latest.yml`, `latest-linux.yml` or `latest-mac.yml` there).
 */
export const releaseOfferSchema = z.object({
  release_id: idSchema,
  kind: releaseKindSchema,
  channel: releaseChannelSchema,
  version: releaseVersionSchema,
  files: z.array(releaseFileSchema),
  base_url: z.string(),
});
export type ReleaseOffer = z.infer<typeof releaseOfferSchema>;

/** Per kind, the release offered to the screen; null: keep what it runs. */
export const screenReleasesSchema = z.object({
  shell: releaseOfferSchema.nullable(),
  web: releaseOfferSchema.nullable(),
});
export type ScreenReleases = z.infer<typeof screenReleasesSchema>;

/** What the device says of an update (`POST /devices/:tag/update-reports`). */
export const updateOutcomeSchema = z.enum(['downloading', 'installed', 'failed', 'rolled_back']);
export type UpdateOutcome = z.infer<typeof updateOutcomeSchema>;

export const updateReportSchema = z.strictObject({
  kind: releaseKindSchema,
  version: releaseVersionSchema,
  outcome: updateOutcomeSchema,
  /** Why it failed or was rolled back; what was done otherwise. */
  detail: z.string().max(1024).default(''),
});
export type UpdateReport = z.infer<typeof updateReportSchema>;

export const releaseSchema = z.object({
  id: idSchema,
  kind: releaseKindSchema,
  channel: releaseChannelSchema,
  version: releaseVersionSchema,
  notes: z.string(),
  files: z.array(releaseFileSchema),
  created_at: timestampSchema,
});
export type Release = z.infer<typeof releaseSchema>;

/** `POST /rollouts`: exactly one target, `group_ids` or `percentage`. */
export const rolloutCreateSchema = z
  .strictObject({
    release_id: idSchema,
    group_ids: z.array(idSchema).min(1).max(100).optional(),
    percentage: z.int().min(1).max(100).optional(),
  })
  .refine((body) => (body.group_ids === undefined) !== (body.percentage === undefined), {
    message: 'give exactly one target: group_ids or percentage',
    path: ['group_ids'],
  });
export type RolloutCreate = z.infer<typeof rolloutCreateSchema>;

/** `PATCH /rollouts/:id`: a percentage rollout's new share (raising it keeps the screens it had). */
export const rolloutUpdateSchema = z.strictObject({ percentage: z.int().min(1).max(100) });

/** How far a rollout has gone, counted over the screens it is in force on now. */
export const rolloutProgressSchema = z.object({
  /** Screens offered its release by it now (no pin, no newer rollout in the way). */
  targeted: z.int().min(0),
  /** Of them, those that run its version (their last update report, or for the shell their heartbeat). */
  on_version: z.int().min(0),
  /** Those whose last report of its version is `failed` or `rolled_back`. */
  failed: z.int().min(0),
  pending: z.int().min(0),
});
export type RolloutProgress = z.infer<typeof rolloutProgressSchema>;

export const rolloutSchema = z.object({
  id: idSchema,
  release_id: idSchema,
  kind: releaseKindSchema,
  version: releaseVersionSchema,
  channel: releaseChannelSchema,
  group_ids: z.array(idSchema).nullable(),
  percentage: z.int().min(1).max(100).nullable(),
  created_at: timestampSchema,
  rolled_back_at: timestampSchema.nullable(),
  progress: rolloutProgressSchema,
});
export type Rollout = z.infer<typeof rolloutSchema>;

/** `PUT /devices/:tag/release-pins/:kind`. */
export const releasePinSchema = z.strictObject({ release_id: idSchema });

/** A screen's releases as the console shows them (`GET /devices/:tag/releases`). */
export const deviceReleasesSchema = z.object({
  /** What it is offered now, per kind (as in its settings). */
  offered: screenReleasesSchema,
  /** Per kind, the release it is pinned to (null: none). */
  pins: z.object({ shell: idSchema.nullable(), web: idSchema.nullable() }),
  /** Per kind, its last update report. */
  reports: z.object({
    shell: updateReportSchema.extend({ reported_at: timestampSchema }).nullable(),
    web: updateReportSchema.extend({ reported_at: timestampSchema }).nullable(),
  }),
  /** The shell's version by its last heartbeat. */
  app_version: z.string().nullable(),
});
export type DeviceReleases = z.infer<typeof deviceReleasesSchema>;
