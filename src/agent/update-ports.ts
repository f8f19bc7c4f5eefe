import type { ReleaseKind, ReleaseOffer } from '../shared/release';

/**
 * What applies releases of one kind on this device (docs/agent.md, "Updates"): the Electron
 * shell's (src/main/updater.ts, electron-updater) or the web player's bundle. The agent's
 * update coordinator (updates.ts) decides *whether* and *when*; a target only knows *how*.
 *
 * The coordinator calls, for an offer whose version differs from `currentVersion()` (a lower one
 * is a rollback, applied the same way) and that did not fail before:
 *  1. `download(offer, source, signal)` at once, whatever is on screen: it fetches the offer's
 *     files (`source.baseUrl + '/' + file.name`, with `source.token` as a bearer token:
 *     `releaseFileUrl`, `downloadVerified` in update-files.ts) and verifies every one by its size
 *     and sha512 before keeping it. It throws `UpdateRefused` when the
 *     release itself is wrong (a file that does not match, a feed that does not name the
 *     offered version): that version is then not tried again until the offer changes. Any other
 *     error (the service away, a disk full) is tried again later, with backoff. `signal` aborts
 *     when the offer changes or the agent stops.
 *  2. `install(offer)` at an allowed moment only (the screen off in a power window, nothing on
 *     screen, or between two items): it puts the downloaded release in force. It answers
 *     `'installed'` when the new version runs in this process already (a reloaded page), or
 *     `'restarting'` when the process ends to install it (the shell's installer). Before calling
 *     it the coordinator writes down what it installs, so that at the next start it compares
 *     `currentVersion()` with it and reports `installed` or `failed`. It throws (`UpdateRefused`
 *     or another error) when it could not: reported `failed`, not tried again for that offer.
 *
 * The coordinator reports `downloading`, `installed` and `failed` itself; a target reports nothing.
 */
export interface UpdateTarget {
  readonly kind: ReleaseKind;
  /** The version that runs now (semantic, as in `ReleaseOffer.version`). */
  currentVersion(): string;
  download(offer: ReleaseOffer, source: ReleaseSource, signal: AbortSignal): Promise<void>;
  install(offer: ReleaseOffer): Promise<InstallResult>;
}

/** Where an offer's files are, for the service this screen talks to now. */
export interface ReleaseSource {
  /** `offer.base_url` made absolute against the service's address, without a trailing `/`. */
  baseUrl: string;
  /** The device's token, sent as `Authorization: Bearer <token>`. */
  token: string;
}

export type InstallResult = 'installed' | 'restarting';

/**
 * The release is wrong, not the moment: a file whose size or sha512 differs from the offer's, a
 * feed that does not offer the version. Trying again would fail the same way, so the coordinator
 * reports it `failed` and does not try that offer again until the service offers another.
 */
export class UpdateRefused extends Error {
  override readonly name = 'UpdateRefused';
}

/**
 * The install was tried and undone: the version ran but did not prove healthy, and what ran before
 * runs again. Reported `rolled_back` (not `failed`), and not tried again until the offer changes.
 * Any error with `outcome: 'rolled_back'` counts as one.
 */
export class UpdateRolledBack extends Error {
  override readonly name = 'UpdateRolledBack';
  readonly outcome = 'rolled_back';
}
