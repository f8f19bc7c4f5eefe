import { describe, expect, it } from 'vitest';
import type { Media } from '../../../src/shared/media';
import { NO_SOUND, soundOptions, soundUrlOf } from './sound-options';

const medium = (name: string, kind: Media['kind']) =>
  ({ id: `md_${name}`, name, kind, url: `/media/md_${name}/content` }) as Media;

describe('the sound choices of the notification and emergency forms', () => {
  it('offers none, the default, then the sounds of the library only', () => {
    const media = [medium('gong.wav', 'sound'), medium('map.png', 'image'), medium('bell.mp3', 'sound')];
    expect(soundOptions(media)).toEqual([
      { value: NO_SOUND, label: 'No sound' },
      { value: 'default', label: 'The default sound' },
      { value: '/media/md_gong.wav/content', label: 'Library: gong.wav' },
      { value: '/media/md_bell.mp3/content', label: 'Library: bell.mp3' },
    ]);
    expect(soundOptions(undefined).map((option) => option.value)).toEqual([NO_SOUND, 'default']);
  });

  it('leaves sound_url out for none and sends any other choice as it is', () => {
    expect(soundUrlOf(NO_SOUND)).toBeUndefined();
    expect(soundUrlOf('default')).toBe('default');
    expect(soundUrlOf('/media/md_1/content')).toBe('/media/md_1/content');
  });
});
