import type { OverrideShown } from '../../src/shared/override';
import type { Expected, Playing } from '../../src/shared/playing';
import type { PlaylistItem } from '../../src/shared/playlist';
import { isOff, nextChange, NEXT_CHANGE_HORIZON } from '../../src/shared/schedule-rules';
import { scheduledAt, type ResolvedSettings } from './screen-settings';

/**
 * What a screen should show now by the rules its agent follows (src/agent/schedule-player.ts:
 * an override above all, then the power window unless a wake command holds it on, then the
 * schedule, its default, the resolved playlist), and whether its last report agrees. Pure: the
 * routes read what it needs (routes/playing.ts, http/device-overview.ts).
 */

export interface PlaylistFacts {
  name: string;
  items: readonly PlaylistItem[];
}

export interface Catalogue {
  playlists: ReadonlyMap<string, PlaylistFacts>;
  boardNames: ReadonlyMap<string, string>;
}

export interface ScreenFacts {
  settings: ResolvedSettings;
  reportedTimeZone: string | null;
  override: OverrideShown | null;
  /** When its newest `wake` command was carried out (ms), if ever. */
  wokenAt: number | null;
  online: boolean;
  /** Its last heartbeat's `showing`, when it was received, and since when it has shown it. */
  report: { showing: string; at: string; since: string | null } | null;
}

/**
 * A wake command keeps a screen on until the off window it was in ends (SchedulePlayer.wake): it
 * still holds when the power has not turned since the wake, which found the screen off.
 */
function stillWoken(facts: ScreenFacts, timeZone: string, now: number): boolean {
  const { wokenAt } = facts;
  const power = facts.settings.power;
  if (wokenAt === null || wokenAt > now || !isOff(power, wokenAt, timeZone)) return false;
  const turns = nextChange(null, power, wokenAt, timeZone) ?? wokenAt + NEXT_CHANGE_HORIZON;
  return turns > now;
}

/**
 * An expectation, its keys in the schema's order: in production the answer is sent as built,
 * unchecked (http/answers.ts), and must be the same bytes as a checked one.
 */
function expectation(
  kind: Expected['kind'],
  reason: Expected['reason'],
  summary: string,
  playlist: { id: string; name: string | null } | null = null,
  override: Expected['override'] = null,
): Expected {
  return {
    kind,
    reason,
    playlist_id: playlist?.id ?? null,
    playlist_name: playlist?.name ?? null,
    override,
    summary,
  };
}

export function expectedOf(facts: ScreenFacts, catalogue: Catalogue, now: number): Expected {
  if (facts.override) {
    const { id, title } = facts.override;
    return expectation('override', 'override', `the emergency message "${title}"`, null, { id, title });
  }
  const at = scheduledAt(facts.settings, facts.reportedTimeZone, now);
  const woken = at.off && stillWoken(facts, at.time_zone, now);
  if (at.off && !woken) return expectation('off', 'power', 'off (power window)');
  const reason = woken ? 'woken' : at.reason;
  if (at.playlist_id === null) return expectation('nothing', reason, 'nothing (no playlist)');
  const name = catalogue.playlists.get(at.playlist_id)?.name ?? null;
  const why = woken
    ? 'woken in its power window'
    : at.reason === 'entry'
      ? 'schedule'
      : at.reason === 'schedule-default'
        ? "schedule's default"
        : 'playlist';
  return expectation('playlist', reason, `${name ?? at.playlist_id} (${why})`, { id: at.playlist_id, name });
}

/** A report in words: `board "Welcome"`, `image photo.jpg`, `off`. */
export function describeShowing(showing: string, catalogue: Catalogue): string {
  const [kind = '', ...rest] = showing.split(':');
  const value = rest.join(':');
  if (kind === 'board') return `board "${catalogue.boardNames.get(value) ?? value}"`;
  if (kind === 'image' || kind === 'video' || kind === 'web') {
    const last = value.split(/[/?#]/).filter(Boolean).at(-1) ?? value;
    return `${kind} ${kind === 'web' ? value : last}`;
  }
  if (kind === 'override') return 'an emergency message';
  if (showing === 'waiting') return 'nothing (waiting for a playlist)';
  return showing;
}

/** Whether `showing` is one of the playlist's items. */
function inPlaylist(showing: string, playlist: PlaylistFacts): boolean {
  return playlist.items.some((item) =>
    item.type === 'board' ? showing === `board:${item.board_id}` : showing === `${item.type}:${item.url}`,
  );
}

/** Null: what it shows tells nothing either way (a hidden page, no renderer). */
function agreement(expected: Expected, showing: string, catalogue: Catalogue): boolean | null {
  if (showing === 'hidden' || showing === 'no renderer') return null;
  switch (expected.kind) {
    case 'override':
      return showing === `override:${expected.override?.id ?? ''}`;
    case 'off':
      return showing === 'off';
    case 'nothing':
      return showing === 'waiting';
    case 'playlist': {
      const playlist = catalogue.playlists.get(expected.playlist_id ?? '');
      if (!playlist) return null;
      return playlist.items.length === 0 ? showing === 'waiting' : inPlaylist(showing, playlist);
    }
  }
}

export function playingOf(facts: ScreenFacts, catalogue: Catalogue, now: number): Playing {
  const expected = expectedOf(facts, catalogue, now);
  const report = facts.online ? facts.report : null;
  if (!report) return { expected, reported: null, agrees: null, detail: null };
  const agrees = agreement(expected, report.showing, catalogue);
  const should = expected.kind === 'playlist' ? `play ${expected.summary}` : `show ${expected.summary}`;
  return {
    expected,
    // In the schema's order: answers are sent as built in production.
    reported: {
      showing: report.showing,
      described: describeShowing(report.showing, catalogue),
      at: report.at,
      since: report.since,
    },
    agrees,
    detail: agrees === false ? `should ${should}, shows ${describeShowing(report.showing, catalogue)}` : null,
  };
}
