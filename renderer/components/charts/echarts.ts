/**
 * The one place ECharts is assembled: only the chart types and components the history views use
 * are registered (echarts/core + parts), so the bundle carries a fraction of the full library.
 * The SVG renderer keeps lines crisp at any zoom and works in DOM emulations, so chart code is
 * testable without a canvas.
 */
import { LineChart, ScatterChart } from 'echarts/charts';
import {
  AxisPointerComponent,
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  MarkAreaComponent,
  MarkLineComponent,
  MarkPointComponent,
  TooltipComponent,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import type { ComposeOption } from 'echarts/core';
import type { LineSeriesOption, ScatterSeriesOption } from 'echarts/charts';
import type {
  DataZoomComponentOption,
  GridComponentOption,
  LegendComponentOption,
  MarkAreaComponentOption,
  MarkLineComponentOption,
  MarkPointComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';

echarts.use([
  LineChart,
  ScatterChart,
  GridComponent,
  TooltipComponent,
  DataZoomComponent,
  MarkAreaComponent,
  MarkLineComponent,
  MarkPointComponent,
  LegendComponent,
  AxisPointerComponent,
  SVGRenderer,
]);

/** Every option the history charts may set, typed against the registered parts only. */
export type ChartOption = ComposeOption<
  | LineSeriesOption
  | ScatterSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | DataZoomComponentOption
  | MarkAreaComponentOption
  | MarkLineComponentOption
  | MarkPointComponentOption
  | LegendComponentOption
>;

export type { LineSeriesOption, ScatterSeriesOption };
export type ChartInstance = echarts.EChartsType;

/** A chart on `element`, drawn with the SVG renderer. */
export function createChart(element: HTMLElement): ChartInstance {
  return echarts.init(element, null, { renderer: 'svg' });
}
