import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { deviceOverviewSchema, deviceSchema } from '../../../../src/shared/device';
import { playlistSchema } from '../../../../src/shared/playlist';
import { api, ApiError } from '../../api/client';

/** A device's path under the service, its tag escaped. */
export const devicePath = (tag: string) => `/devices/${encodeURIComponent(tag)}`;

/**
 * The address of a device's newest screenshot; the time it was taken in the query string makes
 * a new one a new address, so that the browser never shows a cached old one.
 */
export const screenshotUrl = (tag: string, takenAt: string) =>
  `${devicePath(tag)}/screenshot?taken_at=${encodeURIComponent(takenAt)}`;

/** Every screen with its summary, in one request however many there are. */
export function useOverview() {
  return useQuery({
    queryKey: ['devices'],
    queryFn: () => api(z.array(deviceOverviewSchema), '/devices?include=status'),
  });
}

export function useDevice(tag: string) {
  return useQuery({
    queryKey: ['devices', tag],
    queryFn: () => api(deviceSchema, devicePath(tag)),
  });
}

/** The playlists to choose from, by name. */
export function usePlaylists() {
  return useQuery({
    queryKey: ['playlists'],
    queryFn: () => api(z.array(playlistSchema), '/playlists'),
    select: (playlists) =>
      playlists
        .map(({ id, name }) => ({ value: id, label: name }))
        .sort((a, b) => a.label.localeCompare(b.label)),
  });
}

/**
 * When the device's newest screenshot was taken, null without one: the headers of a HEAD
 * request, so that the picture itself is fetched only by the `<img>` that shows it.
 */
export function useScreenshotTime(tag: string) {
  return useQuery({
    // Under `devices`: the `screenshots` notice makes the device's queries stale.
    queryKey: ['devices', tag, 'screenshot'],
    queryFn: async ({ signal }) => {
      const response = await fetch(`${devicePath(tag)}/screenshot`, {
        method: 'HEAD',
        credentials: 'same-origin',
        signal,
      });
      if (response.status === 404) return null;
      if (!response.ok) {
        throw new ApiError(response.status, 'http', `the screenshot could not be read (${response.status})`);
      }
      return response.headers.get('x-screenshot-at');
    },
  });
}
