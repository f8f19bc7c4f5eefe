import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { deviceReleasesSchema, releaseSchema, rolloutSchema } from '../../../../src/shared/release';
import { api } from '../../api/client';

/** Every query of this page starts with `releases`, the resource the service's notices name. */
export const releasesQuery = queryOptions({
  queryKey: ['releases'],
  queryFn: () => api(z.array(releaseSchema), '/releases'),
});

export const rolloutsQuery = queryOptions({
  queryKey: ['releases', 'rollouts'],
  queryFn: () => api(z.array(rolloutSchema), '/rollouts'),
});

/** A screen's offers, pins and reports (its page's Player software panel). */
export const deviceReleasesQuery = (tag: string) =>
  queryOptions({
    queryKey: ['releases', 'device', tag],
    queryFn: () => api(deviceReleasesSchema, `/devices/${encodeURIComponent(tag)}/releases`),
  });

export const KIND_LABELS = { shell: 'Kiosk app (shell)', web: 'Web player' } as const;

/** A share typed in a NumberInput (a number, or its text while typed, `25%`), as a whole number. */
export const shareOf = (value: number | string): number =>
  typeof value === 'number' ? value : Math.round(Number(value.replace(/[^\d.]/g, '')) || 0);
