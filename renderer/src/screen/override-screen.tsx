import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { OverrideShown } from '../../../src/shared/override';
import { overrideBackground, paintedRgb, readableText } from './override-colors';
import { useOverrideSound } from './override-sound';
import { useStageSize } from './stage';
import './override-screen.css';

/** The smallest the text is scaled to (of its largest size): still read from a few metres on a 1080p wall. */
const MIN_SCALE = 0.2;
/** Steps of the search for the largest scale that fits: within 0.4 % of it. */
const FIT_STEPS = 8;

type Log = (level: 'info' | 'warn', message: string) => void;

/**
 * The largest scale (MIN_SCALE to 1) at which the content fits the face without clipping,
 * written as `--override-scale`: a few words are drawn huge, a thousand characters small enough
 * to fit, on a landscape or a portrait screen alike. A binary search over the laid-out size.
 */
function fit(face: HTMLElement, content: HTMLElement): void {
  const style = getComputedStyle(face);
  const height = face.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  const fits = (scale: number) => {
    face.style.setProperty('--override-scale', String(scale));
    return content.scrollHeight <= height && content.scrollWidth <= content.clientWidth;
  };
  if (fits(1)) return;
  let [low, high] = [MIN_SCALE, 1];
  for (let step = 0; step < FIT_STEPS; step++) {
    const middle = (low + high) / 2;
    if (fits(middle)) low = middle;
    else high = middle;
  }
  face.style.setProperty('--override-scale', String(low));
}

/**
 * An emergency override, full screen, above whatever the screen would show (the player, an off
 * window's black, the setup faces) and below the remote commands' faces: its title and message
 * as large as fit, its image from the screen's cache (`media`, else its own URL), on its
 * background colour (the alarm red by default) in black or white text, whichever reads better.
 * Its sound plays once as it appears. Mount it keyed by the override's id.
 */
export function OverrideScreen({
  override,
  media,
  log,
}: {
  override: OverrideShown;
  media: Record<string, string>;
  log: Log;
}) {
  const face = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const stage = useStageSize();
  // The source that failed: a later state may bring the cached copy, which is tried.
  const [failed, setFailed] = useState<string | null>(null);
  const background = overrideBackground(override.background_color);
  const color = useMemo(() => readableText(paintedRgb(background)), [background]);
  const source = override.image_url ? (media[override.image_url] ?? override.image_url) : null;
  const image = source !== failed ? source : null;
  useOverrideSound(override.sound_url, media, log);

  const refit = useCallback(() => {
    if (face.current && content.current) fit(face.current, content.current);
  }, []);
  // Before the browser paints: the first frame is already the size that fits.
  useLayoutEffect(refit, [refit, override.title, override.message, image, stage.width, stage.height]);

  return (
    <div
      ref={face}
      className="override-screen"
      role="alert"
      data-testid="override"
      data-override-id={override.id}
      style={{ background: `linear-gradient(${background}, ${background}), #000`, color }}
    >
      <div ref={content} className="override-content">
        {image && (
          <img
            className="override-image"
            src={image}
            alt=""
            onLoad={refit}
            onError={() => {
              log('warn', `the override's image ${override.image_url} could not be shown`);
              setFailed(image);
            }}
          />
        )}
        <h1 className="override-title" data-testid="override-title">
          {override.title}
        </h1>
        <p className="override-message" data-testid="override-message">
          {override.message}
        </p>
      </div>
    </div>
  );
}
