import './charts.css';
import { BarchartWidget } from './barchart';
import { FunnelchartWidget } from './funnelchart';
import { GraphWidget } from './graph';
import { HistogramWidget } from './histogram';
import { PiechartWidget } from './piechart';
import { ScatterplotWidget } from './scatterplot';
import { TimechartWidget } from './timechart';
import { TimeseriesWidget } from './timeseries';
import type { VariantComponents } from './types';
import { WaterfallWidget } from './waterfall';

export const chartsComponents: VariantComponents = {
  graph: GraphWidget,
  timeseries: TimeseriesWidget,
  timechart: TimechartWidget,
  barchart: BarchartWidget,
  piechart: PiechartWidget,
  funnelchart: FunnelchartWidget,
  waterfall: WaterfallWidget,
  histogram: HistogramWidget,
  scatterplot: ScatterplotWidget,
};
