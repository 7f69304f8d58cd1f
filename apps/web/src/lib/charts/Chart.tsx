import { useEffect, useRef } from 'react';
import { useAppStore } from '../appStore.ts';
import { primaryOf } from '../theme.ts';
import type { ChartOption } from './options.ts';
import type * as EchartsModule from './echarts.ts';

type Echarts = typeof EchartsModule;
let loading: Promise<Echarts> | undefined;
/** ECharts is loaded the first time a chart is drawn (its own chunk, after the page shell). */
const loadEcharts = () => (loading ??= import('./echarts.ts'));

/**
 * One chart: a box of the given height that ECharts draws `option(primary)` into, redrawn when the
 * option or the theme's primary colour changes, resized with its box, disposed on unmount.
 */
export function Chart({
  option,
  height = 260,
  testId,
}: {
  option: (primary: string) => ChartOption;
  height?: number;
  testId?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<Echarts['init']> | null>(null);
  const primary = useAppStore((s) => primaryOf(s.publicSettings?.INTERFACE));
  // The latest option and colour, for the first draw once ECharts has loaded.
  const optionRef = useRef(option);
  const primaryRef = useRef(primary);

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | undefined;
    void loadEcharts().then(({ init }) => {
      if (disposed || !box.current) return;
      chart.current = init(box.current);
      observer = new ResizeObserver(() => chart.current?.resize());
      observer.observe(box.current);
      chart.current.setOption(optionRef.current(primaryRef.current));
      box.current.dataset.drawn = 'true';
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    optionRef.current = option;
    primaryRef.current = primary;
    chart.current?.setOption(option(primary), true);
  }, [option, primary]);

  return <div ref={box} style={{ height, width: '100%' }} data-testid={testId} />;
}
