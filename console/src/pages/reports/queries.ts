import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { playTotalSchema } from '../../../../src/shared/play-report';
import { api } from '../../api/client';
import { browserTimeZone, instantsOf, type DayRange } from './range';

/** What the operator chose: the days, and at most one screen, group, board and medium. */
export interface ReportFilters {
  range: DayRange;
  deviceTag: string | null;
  groupId: string | null;
  boardId: string | null;
  /** A medium's URL (`/media/<id>/content`). */
  url: string | null;
}

/** The query string both reports take (docs/api/commands.md), in the browser's time zone. */
export function reportSearch(filters: ReportFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(instantsOf(filters.range));
  if (filters.deviceTag) params.set('device_tag', filters.deviceTag);
  if (filters.groupId) params.set('group_id', filters.groupId);
  if (filters.boardId) params.set('board_id', filters.boardId);
  if (filters.url) params.set('url', filters.url);
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  return params.toString();
}

/** The totals per item per day: what the chart and the table show. */
export const totalsQuery = (filters: ReportFilters) =>
  queryOptions({
    queryKey: ['plays', 'totals', filters],
    queryFn: () =>
      api(
        z.array(playTotalSchema),
        `/plays/totals?${reportSearch(filters, { by: 'day', time_zone: browserTimeZone() })}`,
      ),
  });

/**
 * A CSV download's address: a plain link, sent with the session's cookie (a GET needs no other
 * header), which the browser saves under the name the service gives.
 */
export function csvHref(path: '/plays' | '/plays/totals', filters: ReportFilters): string {
  const extra: Record<string, string> = { format: 'csv' };
  if (path === '/plays/totals') Object.assign(extra, { by: 'day', time_zone: browserTimeZone() });
  // The list's most: a longer range is cut there (the totals count every play).
  else extra.limit = '50000';
  return `${path}?${reportSearch(filters, extra)}`;
}
