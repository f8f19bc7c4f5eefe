import type { ComponentType } from 'react';
import type { VariantMetrics } from '../../../src/shared/metrics';
import type { ThemeTokens } from '../../../src/shared/theme';
import type { Variant } from '../../../src/shared/variants';
import type { CustomCode } from '../../../src/shared/web-content';

/** What every widget variant gets: its validated, non-empty data and the room it has. */
export interface WidgetProps<V extends Variant = Variant> {
  data: VariantMetrics[V];
  /** The content box inside the padding and below the title, in native board pixels. */
  width: number;
  height: number;
  theme: ThemeTokens;
  /** The board's base font size in pixels (font_size applied). */
  fontSize: number;
  /** Cached media: the local URL of a remote one, or undefined when not cached yet. */
  media: (url: string) => string | undefined;
  /** The widget's own code: a custom widget's HTML, CSS and JavaScript; null for the others. */
  code?: CustomCode | null;
}

export type WidgetComponent<V extends Variant> = ComponentType<WidgetProps<V>>;

export type VariantComponents = { [V in Variant]?: WidgetComponent<V> };
