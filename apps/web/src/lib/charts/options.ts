import { mixColors } from '../theme.ts';
import type { ChartOption, Gradient } from './chartTypes.ts';

/**
 * The dashboards' chart options as pure functions of their data and the theme's primary colour
 * (component tests check the mapping without drawing), in ECharts' option shape (`chartTypes.ts`),
 * drawn by `canvasChart.ts`.
 */
export type { ChartOption };

/** The series colours: the primary colour first, then quieter companions. */
export function palette(primary: string): string[] {
  return [primary, '#f8ac59', '#1c84c6', '#ed5565', '#23c6c8', mixColors(primary, '#ffffff', 0.5)];
}

const gradient = (color: string): Gradient => ({
  type: 'linear',
  x: 0,
  y: 0,
  x2: 0,
  y2: 1,
  colorStops: [
    { offset: 0, color: mixColors(color, '#ffffff', 0.3) },
    { offset: 1, color: mixColors(color, '#ffffff', 0.95) },
  ],
});

/** Lines over dates, each with a gradient area (activity, session trend). */
export function lineOption(primary: string, dates: string[], series: { name: string; data: number[] }[]): ChartOption {
  const colors = palette(primary);
  return {
    color: colors,
    tooltip: { trigger: 'axis' },
    legend: { show: series.length > 1, top: 0, right: 0 },
    grid: { left: 40, right: 16, top: 32, bottom: 24 },
    xAxis: { type: 'category', boundaryGap: false, data: dates },
    yAxis: { type: 'value', minInterval: 1 },
    series: series.map((s, i) => ({
      name: s.name,
      type: 'line',
      smooth: true,
      symbolSize: 6,
      data: s.data,
      areaStyle: { color: gradient(colors[i]!) },
    })),
  };
}

/** Columns over dates with a gradient (logins per day). */
export function columnOption(primary: string, dates: string[], name: string, data: number[]): ChartOption {
  return {
    color: [primary],
    tooltip: { trigger: 'axis' },
    grid: { left: 40, right: 16, top: 16, bottom: 24 },
    xAxis: { type: 'category', data: dates },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      {
        name,
        type: 'bar',
        barMaxWidth: 32,
        data,
        itemStyle: { borderRadius: [4, 4, 0, 0], color: gradient(primary) },
      },
    ],
  };
}

/** The ring's empty track: the colour of the rest of a whole, and of a ring with nothing to show. */
export const RING_TRACK = '#e8e8e8';

/**
 * A ring (pie with a hole, radius 72-90 %) of parts of a whole, the percentage of the first in the
 * middle. With a total of 0 there is no part to draw (ECharts would split the ring evenly and fill
 * half of it): the ring is its empty track alone, silent, and says 0 % as the original does.
 */
export function ringOption(primary: string, parts: { name: string; value: number }[]): ChartOption {
  const total = parts.reduce((s, p) => s + p.value, 0);
  const first = parts[0]?.value ?? 0;
  const percent = total ? Math.round((first / total) * 1000) / 10 : 0;
  const empty = total <= 0;
  return {
    color: [primary, RING_TRACK, '#f8ac59'],
    tooltip: { trigger: 'item', show: !empty },
    series: [
      {
        type: 'pie',
        radius: ['72%', '90%'],
        avoidLabelOverlap: false,
        silent: empty,
        label: {
          show: true,
          position: 'center',
          formatter: () => `${percent}%`,
          fontSize: 20,
          fontWeight: 600,
          color: '#333',
        },
        labelLine: { show: false },
        emphasis: { scale: false },
        // One zero item is drawn as the whole ring (ECharts' stillShowZeroSum) in the track's colour.
        data: empty ? [{ name: '', value: 0, itemStyle: { color: RING_TRACK } }] : parts,
      },
    ],
  };
}

/** One 100 % stacked horizontal bar of the asset types' shares. */
export function proportionOption(primary: string, items: { label: string; total: number }[]): ChartOption {
  const sum = items.reduce((s, i) => s + i.total, 0) || 1;
  return {
    color: palette(primary),
    tooltip: { trigger: 'item', formatter: '{a}: {c}%' },
    legend: { bottom: 0, left: 0 },
    grid: { left: 0, right: 0, top: 0, bottom: 32, containLabel: false },
    xAxis: { type: 'value', max: 100, show: false },
    yAxis: { type: 'category', data: [''], show: false },
    series: items.map((i) => ({
      name: i.label,
      type: 'bar',
      stack: 'total',
      barWidth: 20,
      data: [Math.round((i.total / sum) * 1000) / 10],
    })),
  };
}
