import { toFieldIssues, type FieldIssue } from '../../src/shared/issues';
import { parseMetrics, type MetricsData } from '../../src/shared/metrics';
import type { Variant } from '../../src/shared/variants';
import type { ServiceConfig } from '../context';
import type { MetricsCheck } from '../domain/metric-writes';
import { HTTP_MEDIA_REFUSED, isPlainHttpMedia } from './http-media';

/** The fields of a variant's data that name media a screen downloads (docs/widgets.md). */
const MEDIA_FIELDS: Partial<Record<Variant, readonly string[]>> = {
  image: ['url'],
  video: ['mp4', 'webm', 'ogg', 'poster'],
};

function plainHttpMedia(config: Pick<ServiceConfig, 'httpMedia'>, variant: Variant, data: MetricsData) {
  return (MEDIA_FIELDS[variant] ?? []).flatMap((field) => {
    const url = data[field];
    return typeof url === 'string' && isPlainHttpMedia(config, url)
      ? [{ path: field, message: HTTP_MEDIA_REFUSED }]
      : [];
  });
}

/** Issues named under `prefix`, as the request spelt the field. */
export function prefixed(issues: FieldIssue[], prefix: string): FieldIssue[] {
  return issues.map(({ path, message }) => ({ path: path ? `${prefix}.${path}` : prefix, message }));
}

/**
 * What every metric write checks (the routes, scripts and the weather feed): the data against its
 * variant, and its media over https unless the service allows plain http (`--allow-http-media`).
 * Refusals name the field under `prefix`, as the request spelt it.
 */
export function metricsCheck(config: Pick<ServiceConfig, 'httpMedia'>, prefix = ''): MetricsCheck {
  const under = (issues: FieldIssue[]) => (prefix ? prefixed(issues, prefix) : issues);
  return (variant, data) => {
    const result = parseMetrics(variant, data);
    if (!result.success) return under(toFieldIssues(result.error));
    const media = plainHttpMedia(config, variant, data);
    return media.length > 0 ? under(media) : null;
  };
}
