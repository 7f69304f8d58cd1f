import { useEffect, useRef } from 'react';
import { useAppStore } from '../appStore.ts';
import { primaryOf } from '../theme.ts';
import type { ChartOption } from './options.ts';
import type * as ChartsModule from './canvasChart.ts';

type Charts = typeof ChartsModule;
let loading: Promise<Charts> | undefined;
/** The drawing code is loaded the first time a chart is drawn (its own chunk, after the page shell). */
const loadCharts = () => (loading ??= import('./canvasChart.ts'));

/**
 * One chart: a box of the given height that `canvasChart.ts` draws `option(primary)` into, redrawn when the
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
  const chart = useRef<ReturnType<Charts['init']> | null>(null);
  const primary = useAppStore((s) => primaryOf(s.publicSettings?.INTERFACE));
  // The latest option and colour, for the first draw once the drawing code has loaded.
  const optionRef = useRef(option);
  const primaryRef = useRef(primary);

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | undefined;
    void loadCharts().then(({ init }) => {
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
    chart.current?.setOption(option(primary));
  }, [option, primary]);

  return <div ref={box} style={{ height, width: '100%' }} data-testid={testId} />;
}
