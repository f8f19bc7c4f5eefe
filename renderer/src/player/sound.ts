// The test program (tsconfig.test.json) reaches this file through imports alone, so it needs a
// pointer to the declaration of `.wav` imports; an import cannot carry an ambient declaration.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./assets.d.ts" />
import chime from '../../../resources/sounds/default.wav';
import type { NotificationSound } from '../../../src/shared/bridge';

/** The chime bundled with the player, for `sound_url: "default"`. */
export const DEFAULT_SOUND: string = chime;

type Log = (level: 'info' | 'warn', message: string) => void;

/**
 * Where a notification's sound plays from, as the agent resolved it when it delivered the
 * notification: the bundled chime, or a file of the local cache. The player never loads the
 * remote file.
 */
export function soundSource(sound: NotificationSound): string | null {
  if (!sound) return null;
  return sound.kind === 'default' ? DEFAULT_SOUND : sound.url;
}

/**
 * A browser may refuse to start a sound (autoplay policy): that is logged, never thrown. `what`
 * names the sound in the log (a notification's, or an emergency override's).
 */
export function playSound(src: string, log: Log, what = 'the notification sound'): void {
  try {
    const audio = new Audio(src);
    audio.play().catch((error: unknown) => log('warn', `${what} did not play (${String(error)})`));
  } catch (error) {
    log('warn', `${what} did not play (${String(error)})`);
  }
}
