import { useEffect, useRef, useState, type CSSProperties } from 'react';
import type { VariantMetrics } from '../../../src/shared/metrics';
import { MediaPlaceholder } from './image';
import type { WidgetProps } from './types';

type VideoMode = NonNullable<VariantMetrics['video']['mode']>;

const OBJECT_FIT: Record<VideoMode, CSSProperties['objectFit']> = {
  fit: 'contain',
  fill: 'cover',
  stretch: 'fill',
};

/** A looping, autoplaying video from the first cached of its sources; silent unless told not to be. */
export function VideoWidget({ data, width, height, theme, media }: WidgetProps<'video'>) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const source = [data.mp4, data.webm, data.ogg]
    .map((url) => (url ? media(url) : undefined))
    .find((local) => local !== undefined);
  const poster = data.poster ? media(data.poster) : undefined;
  const muted = data.muted !== false;
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    // React sets `muted` as a property, never as the attribute autoplay policies may read first;
    // setting it here and asking to play once more is harmless when it already plays.
    video.muted = muted;
    if (video.paused) video.play().catch(() => undefined);
  }, [muted, source]);

  return (
    <div className="lists-widget lists-video" style={{ width, height }}>
      {source && failed !== source ? (
        <video
          key={source}
          ref={videoRef}
          src={source}
          poster={poster}
          muted={muted}
          autoPlay
          loop
          playsInline
          disablePictureInPicture
          preload="auto"
          style={{ objectFit: OBJECT_FIT[data.mode ?? 'fit'] }}
          onError={() => setFailed(source)}
        />
      ) : (
        <MediaPlaceholder
          icon="film"
          label="Video not available yet"
          size={Math.max(12, Math.round(Math.min(width, height) * 0.3))}
          theme={theme}
        />
      )}
    </div>
  );
}
