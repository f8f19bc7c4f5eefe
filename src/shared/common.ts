import { z } from 'zod';
import { DATE_RANGE_MESSAGE, isDateInRange, storable, textSchema } from './limits';

/** Ids are opaque strings: globally unique and never reused or changed. */
export const idSchema = textSchema.min(1, 'must not be empty').max(64, 'must be at most 64 characters');

const TAG_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

/** Tags are human-readable identifiers that appear in URL paths, so they stay URL-safe. */
export const tagSchema = z
  .string()
  .regex(TAG_PATTERN, 'must be 1 to 100 letters, digits, "_", "-" or ".", starting with a letter or digit');

const COLOR_PATTERN =
  /^(#[0-9a-f]{3,4}|#[0-9a-f]{6}|#[0-9a-f]{8}|[a-z]{3,30}|(rgb|hsl)a?\([0-9.,%\s/deg]+\))$/i;

/** A CSS color: #rgb, #rrggbb(aa), rgb()/hsl() or a named color. */
export const colorSchema = z
  .string()
  .regex(COLOR_PATTERN, 'must be a CSS color such as "#1e90ff", "rgb(30 144 255)" or "teal"');

/**
 * Remote content is fetched over HTTP(S) only; the Electron shell narrows this to https. The URL
 * parser accepts NUL and lone surrogates (it escapes them), so the text rules apply too.
 */
export const webUrlSchema = storable(
  z.url({
    protocol: /^https?$/,
    error: 'must be an http or https URL',
  }),
);

/** An ISO 8601 date-time with an offset, from 1970 to 9999 (see limits.ts); one message each. */
export const timestampSchema = z.iso
  .datetime({ offset: true, abort: true, error: 'must be an ISO 8601 date-time' })
  .refine(isDateInRange, DATE_RANGE_MESSAGE);

/** Icon names of the bundled open icon library, with or without the "fa-" prefix. */
export const iconNameSchema = z
  .string()
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be an icon name such as "bug" or "fa-bug"')
  .max(64, 'must be at most 64 characters');

export const FONT_SIZES = ['small', 'normal', 'large'] as const;
export const fontSizeSchema = z.enum(FONT_SIZES);
export type FontSize = z.infer<typeof fontSizeSchema>;

/** The three kinds shared by flows and channels in the interface. */
export const RESOURCE_TYPES = ['default', 'affiliated', 'virtualized'] as const;
export const resourceTypeSchema = z.enum(RESOURCE_TYPES);
export type ResourceType = z.infer<typeof resourceTypeSchema>;
