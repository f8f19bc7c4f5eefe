import type { Media } from '../../../src/shared/media';

/**
 * The sounds a screen may play as a message appears, one list for every form that offers them
 * (notifications, emergency overrides): none, the screens' own default sound, or a sound of the
 * media library. A Select needs a value for "none", which the body leaves out.
 */
export const NO_SOUND = 'none';

export interface SoundOption {
  value: string;
  label: string;
}

/** The choices, the library's sounds (of `media`, any kind; undefined while it loads) last. */
export function soundOptions(media: readonly Media[] | undefined): SoundOption[] {
  return [
    { value: NO_SOUND, label: 'No sound' },
    { value: 'default', label: 'The default sound' },
    ...(media ?? [])
      .filter((medium) => medium.kind === 'sound')
      .map((medium) => ({ value: medium.url, label: `Library: ${medium.name}` })),
  ];
}

/** The body's `sound_url` for a choice: left out for none. */
export function soundUrlOf(choice: string): string | undefined {
  return choice === NO_SOUND ? undefined : choice;
}
