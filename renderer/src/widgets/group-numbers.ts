import './numbers.css';
import { BulletchartWidget } from './bulletchart';
import { ClockWidget } from './clock';
import { CompassWidget } from './compass';
import { CountdownWidget } from './countdown';
import { GaugeWidget } from './gauge';
import { MultigaugeWidget } from './multigauge';
import { MultivalueWidget } from './multivalue';
import { ServersWidget } from './servers';
import type { VariantComponents } from './types';
import { ValueWidget } from './value';

export const numbersComponents: VariantComponents = {
  value: ValueWidget,
  multivalue: MultivalueWidget,
  gauge: GaugeWidget,
  multigauge: MultigaugeWidget,
  bulletchart: BulletchartWidget,
  compass: CompassWidget,
  countdown: CountdownWidget,
  clock: ClockWidget,
  servers: ServersWidget,
};
