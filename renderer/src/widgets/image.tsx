import { useState, type CSSProperties } from 'react';
import type { VariantMetrics } from '../../../src/shared/metrics';
import type { ThemeTokens } from '../../../src/shared/theme';
import { Icon } from '../icons/icon';
import type { WidgetProps } from './types';

type ImageMode = NonNullable<VariantMetrics['image']['mode']>;

const OBJECT_FIT: Record<ImageMode, CSSProperties['objectFit']> = {
  fit: 'contain',
  fill: 'cover',
  stretch: 'fill',
  center: 'none',
};

/** What shows while media is not cached: quiet, and never the remote address. */
export function MediaPlaceholder({
  icon,
  label,
  size,
  theme,
}: {
  icon: string;
  label: string;
  size: number;
  theme: ThemeTokens;
}) {
  return (
    <div className="lists-media-placeholder" role="img" aria-label={label} style={{ color: theme.muted }}>
      <Icon name={icon} size={size} />
    </div>
  );
}

/** The cached copy of an image, fitted to the box by `mode`. */
export function ImageWidget({ data, width, height, theme, media }: WidgetProps<'image'>) {
  // An inline image (a data: URL) needs no download.
  const source = data.url.startsWith('data:') ? data.url : media(data.url);
  const [failed, setFailed] = useState<string | null>(null);
  const placeholderSize = Math.max(12, Math.round(Math.min(width, height) * 0.3));

  return (
    <div className="lists-widget lists-image" style={{ width, height }}>
      {source && failed !== source ? (
        <img
          src={source}
          alt=""
          draggable={false}
          decoding="async"
          style={{ objectFit: OBJECT_FIT[data.mode ?? 'fit'] }}
          onError={() => setFailed(source)}
        />
      ) : (
        <MediaPlaceholder icon="image" label="Image not available yet" size={placeholderSize} theme={theme} />
      )}
    </div>
  );
}
