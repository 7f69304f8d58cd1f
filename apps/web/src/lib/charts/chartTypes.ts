/**
 * The chart options the dashboards build (`options.ts`) and `canvasChart.ts` draws: the part of
 * ECharts' option shape they use, so the options read as ECharts' would.
 */
export interface Gradient {
  type: 'linear';
  x: number;
  y: number;
  x2: number;
  y2: number;
  colorStops: { offset: number; color: string }[];
}

type Length = number | string;

export interface AxisOption {
  type?: 'category' | 'value';
  data?: string[];
  boundaryGap?: boolean;
  minInterval?: number;
  max?: number;
  show?: boolean;
}

export interface LineSeries {
  type: 'line';
  name?: string;
  smooth?: boolean;
  symbolSize?: number;
  data: number[];
  areaStyle?: { color?: string | Gradient };
}

export interface BarSeries {
  type: 'bar';
  name?: string;
  stack?: string;
  barWidth?: number;
  barMaxWidth?: number;
  data: number[];
  itemStyle?: { borderRadius?: number | number[]; color?: string | Gradient };
}

export interface PieItem {
  name: string;
  value: number;
  itemStyle?: { color?: string };
}

export interface PieSeries {
  type: 'pie';
  name?: string;
  radius?: [Length, Length];
  avoidLabelOverlap?: boolean;
  silent?: boolean;
  label?: {
    show?: boolean;
    position?: 'center';
    formatter?: string | (() => string);
    fontSize?: number;
    fontWeight?: number | string;
    color?: string;
  };
  labelLine?: { show?: boolean };
  emphasis?: { scale?: boolean };
  data: PieItem[];
}

export type Series = LineSeries | BarSeries | PieSeries;

export interface ChartOption {
  color?: string[];
  tooltip?: { trigger?: 'axis' | 'item'; show?: boolean; formatter?: string };
  legend?: { show?: boolean; top?: Length; right?: Length; bottom?: Length; left?: Length };
  grid?: { left?: Length; right?: Length; top?: Length; bottom?: Length; containLabel?: boolean };
  xAxis?: AxisOption;
  yAxis?: AxisOption;
  series?: Series[];
}
