import { useEffect, useRef, useState } from 'react';
import { DEFAULT_SOUND, playSound } from '../player/sound';

/**
 * How long an override's own sound may take to reach the cache (the agent fetches it as the
 * override arrives) before the chime plays in its place, as a notification's does.
 */
export const OVERRIDE_SOUND_WAIT_MS = 5000;

type Log = (level: 'info' | 'warn', message: string) => void;

/**
 * Plays an override's sound once, as it appears: "default" is the bundled chime; a file plays
 * from the screen's cache (`media`), never from the web, and the chime plays instead when it is
 * not cached within OVERRIDE_SOUND_WAIT_MS. The hook lives as long as the override's face (one
 * per override, by its id), so a new state of the same override does not play it again.
 */
export function useOverrideSound(soundUrl: string | null, media: Record<string, string>, log: Log): void {
  const played = useRef(false);
  const [gaveUp, setGaveUp] = useState(false);
  const cached = soundUrl === null || soundUrl === 'default' ? undefined : media[soundUrl];
  const src =
    soundUrl === null
      ? null
      : soundUrl === 'default'
        ? DEFAULT_SOUND
        : (cached ?? (gaveUp ? DEFAULT_SOUND : null));

  useEffect(() => {
    if (played.current || soundUrl === null || soundUrl === 'default' || cached !== undefined) return;
    const timer = setTimeout(() => {
      log('warn', `the override's sound ${soundUrl} is not cached yet; playing the chime`);
      setGaveUp(true);
    }, OVERRIDE_SOUND_WAIT_MS);
    return () => clearTimeout(timer);
  }, [soundUrl, cached, log]);

  useEffect(() => {
    // A ref, not state: React's strict mode runs this twice, and the sound must play once.
    if (src === null || played.current) return;
    played.current = true;
    playSound(src, log, "the override's sound");
  }, [src, log]);
}
