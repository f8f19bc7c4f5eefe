import { CustomWidget } from './custom';
import { IframeWidget } from './iframe';
import { MapWidget } from './map';
import type { VariantComponents } from './types';
import { WeatherWidget } from './weather';

/** Variants that show content from the web (docs/player.md, "Web content"). */
export const webComponents: VariantComponents = {
  iframe: IframeWidget,
  map: MapWidget,
  custom: CustomWidget,
  weather: WeatherWidget,
};
