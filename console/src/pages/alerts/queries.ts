import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { alertDestinationSchema, alertRuleSchema, alertSchema } from '../../../../src/shared/alert';
import { scriptSchema } from '../../../../src/shared/script';
import { api } from '../../api/client';
import { groupsQuery } from '../schedules/queries';
import { useOverview } from '../screens/queries';
import type { Names } from './words';

// Every key starts with `alerts`: the service's `alerts` notice (a destination or rule changed,
// an incident opened or resolved) refreshes all three.

export const destinationsQuery = queryOptions({
  queryKey: ['alerts', 'destinations'],
  queryFn: () => api(z.array(alertDestinationSchema), '/alert-destinations'),
});

export const rulesQuery = queryOptions({
  queryKey: ['alerts', 'rules'],
  queryFn: () => api(z.array(alertRuleSchema), '/alert-rules'),
});

/**
 * How often the history is read while a message is under way. Sending and retrying tell no
 * console (only opening and resolving an incident do), so a message waiting for its gathering or
 * its retry is followed by asking, at the alert job's own pace, and only then.
 */
const WHILE_SENDING_MS = 5_000;

export const incidentsQuery = queryOptions({
  queryKey: ['alerts'],
  queryFn: () => api(z.array(alertSchema), '/alerts'),
  refetchInterval: (query) =>
    query.state.data?.some((incident) =>
      incident.deliveries.some((delivery) => delivery.status === 'pending'),
    )
      ? WHILE_SENDING_MS
      : false,
});

/** The account's scripts, under the key the scripts pages read them by (a rule may watch one). */
export const scriptsQuery = queryOptions({
  queryKey: ['scripts'],
  queryFn: () => api(z.array(scriptSchema), '/scripts'),
});

export const destinationPath = (id: string) => `/alert-destinations/${encodeURIComponent(id)}`;
export const rulePath = (id: string) => `/alert-rules/${encodeURIComponent(id)}`;

/** The names the rules and the history are said with: groups, screens, scripts and destinations. */
export function useNames(): Names {
  const groups = useQuery(groupsQuery);
  const screens = useOverview();
  const scripts = useQuery(scriptsQuery);
  const destinations = useQuery(destinationsQuery);
  return {
    groups: new Map(groups.data?.map((group) => [group.id, group.name])),
    screens: new Map(screens.data?.map((screen) => [screen.tag, screen.name || screen.tag])),
    scripts: new Map(scripts.data?.map((script) => [script.id, script.name])),
    destinations: new Map(destinations.data?.map((destination) => [destination.id, destination])),
  };
}
