import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

/**
 * ECharts with only what the dashboards draw (lines, bars, pies on a canvas, grid, tooltip,
 * legend): imported by `Chart.tsx` after the page has drawn, so it is a chunk of its own and never
 * part of a first load.
 */
echarts.use([LineChart, BarChart, PieChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

export const init = echarts.init;
