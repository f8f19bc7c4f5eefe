// The test program (tsconfig.test.json) reaches this file through imports alone, so it needs a
// pointer to the declaration of `.wav` imports; an import cannot carry an ambient declaration.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./assets.d.ts" />
import chime from '../../../resources/sounds/default.wav';

/** The chime bundled with the player, for `sound_url: "default"`. */
export const DEFAULT_SOUND: string = chime;

type Log = (level: 'info' | 'warn', message: string) => void;

/**
 * Where a notification's sound plays from: the bundled chime for `default`, the local cache for
 * an https URL. A URL not cached (yet) plays the chime rather than nothing, and never the remote
 * file: the player loads nothing from the network.
 */
export function soundSource(soundUrl: string | null, media: Record<string, string>, log: Log): string | null {
  if (!soundUrl) return null;
  if (soundUrl === 'default') return DEFAULT_SOUND;
  const cached = media[soundUrl];
  if (cached) return cached;
  log('info', `sound ${soundUrl} is not cached; playing the default chime`);
  return DEFAULT_SOUND;
}

/** A browser may refuse to start a sound (autoplay policy): that is logged, never thrown. */
export function playSound(src: string, log: Log): void {
  try {
    const audio = new Audio(src);
    audio
      .play()
      .catch((error: unknown) => log('warn', `the notification sound did not play (${String(error)})`));
  } catch (error) {
    log('warn', `the notification sound did not play (${String(error)})`);
  }
}
