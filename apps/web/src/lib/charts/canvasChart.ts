import type {
  AxisOption,
  BarSeries,
  ChartOption,
  Gradient,
  LineSeries,
  PieItem,
  PieSeries,
  Series,
} from './chartTypes.ts';

/**
 * The dashboards' charts drawn on a canvas from the option objects of `options.ts`: lines (smooth,
 * gradient area, hollow symbols), columns (gradient, rounded tops), one 100 % stacked bar, rings
 * with a centred label; grid lines and axis labels, a legend, and a tooltip on hover (the category's
 * values, or the item's). It draws what those options describe and nothing more (no animation):
 * a few KB in place of ECharts (issue 37 part 4). Same calls as ECharts' instance: `init(box)`,
 * `setOption`, `resize`, `dispose`.
 */
const FONT = '12px -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const AXIS_TEXT = '#6e7079';
const SPLIT_LINE = '#e0e6f1';
const LEGEND_TEXT = '#333';

type Ctx = CanvasRenderingContext2D;
interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

function fill(ctx: Ctx, color: string | Gradient | undefined, box: Box, fallback: string): string | CanvasGradient {
  if (!color) return fallback;
  if (typeof color === 'string') return color;
  const g = ctx.createLinearGradient(
    box.x + color.x * box.w,
    box.y + color.y * box.h,
    box.x + color.x2 * box.w,
    box.y + color.y2 * box.h,
  );
  for (const s of color.colorStops) g.addColorStop(s.offset, s.color);
  return g;
}

/** A round value axis top: 1, 2, 5 × 10^n steps, about five of them, at least `minInterval` apart. */
export function valueTicks(max: number, minInterval = 0): number[] {
  const top = Math.max(max, minInterval || 1);
  const raw = top / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  let step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  if (minInterval) step = Math.max(step, minInterval);
  const ticks: number[] = [];
  for (let v = 0; v < top + step / 2; v += step) ticks.push(Math.round(v * 1e9) / 1e9);
  if (ticks[ticks.length - 1]! < top) ticks.push(ticks[ticks.length - 1]! + step);
  return ticks;
}

/** A smooth curve through the points (Catmull-Rom as cubic Béziers, flattened at the ends and at peaks). */
function curve(ctx: Ctx, pts: [number, number][], smooth: boolean): void {
  ctx.moveTo(pts[0]![0], pts[0]![1]);
  for (let i = 1; i < pts.length; i++) {
    const [x, y] = pts[i]!;
    if (!smooth) {
      ctx.lineTo(x, y);
      continue;
    }
    const p0 = pts[i - 2] ?? pts[i - 1]!;
    const p1 = pts[i - 1]!;
    const p3 = pts[i + 1] ?? pts[i]!;
    const k = 0.2;
    // Control points kept between the two ends' heights: the curve never overshoots a point (as ECharts').
    const lo = Math.min(p1[1], y);
    const hi = Math.max(p1[1], y);
    const clamp = (v: number) => Math.min(hi, Math.max(lo, v));
    ctx.bezierCurveTo(
      p1[0] + (x - p0[0]) * k,
      clamp(p1[1] + (y - p0[1]) * k),
      x - (p3[0] - p1[0]) * k,
      clamp(y - (p3[1] - p1[1]) * k),
      x,
      y,
    );
  }
}

const px = (v: number | string | undefined, whole: number, fallback: number): number =>
  v === undefined ? fallback : typeof v === 'number' ? v : (parseFloat(v) / 100) * whole;

interface Hit {
  /** The tooltip's lines: a title and coloured rows. */
  title?: string;
  rows: { color: string; name: string; value: string }[];
  /** The category under the pointer (axis tooltips draw a dashed line there). */
  axisX?: number;
}

class CanvasChart {
  private canvas = document.createElement('canvas');
  private tip = document.createElement('div');
  private option: ChartOption | undefined;
  private hitTest: ((x: number, y: number) => Hit | undefined) | undefined;
  private pointer: number | undefined;

  constructor(private box: HTMLElement) {
    if (getComputedStyle(box).position === 'static') box.style.position = 'relative';
    this.canvas.style.display = 'block';
    Object.assign(this.tip.style, {
      position: 'absolute',
      display: 'none',
      pointerEvents: 'none',
      background: '#fff',
      border: '1px solid #ddd',
      borderRadius: '4px',
      boxShadow: '0 2px 8px rgba(0,0,0,.15)',
      padding: '6px 10px',
      font: FONT.replace('12px', '14px'),
      lineHeight: '22px',
      color: '#666',
      whiteSpace: 'nowrap',
      zIndex: '1',
    });
    box.append(this.canvas, this.tip);
    this.canvas.addEventListener('mousemove', this.onMove);
    this.canvas.addEventListener('mouseleave', this.onLeave);
  }

  setOption(option: ChartOption): void {
    this.option = option;
    this.draw();
  }

  resize(): void {
    this.draw();
  }

  dispose(): void {
    this.canvas.removeEventListener('mousemove', this.onMove);
    this.canvas.removeEventListener('mouseleave', this.onLeave);
    this.canvas.remove();
    this.tip.remove();
  }

  private onMove = (e: MouseEvent) => {
    const r = this.canvas.getBoundingClientRect();
    const x = e.clientX - r.left;
    const y = e.clientY - r.top;
    const hit = this.hitTest?.(x, y);
    const axisX = hit?.axisX;
    if (axisX !== this.pointer) {
      this.pointer = axisX;
      this.draw();
    }
    if (!hit || this.option?.tooltip?.show === false) return this.onLeave();
    this.tip.replaceChildren();
    if (hit.title) {
      const t = document.createElement('div');
      t.textContent = hit.title;
      this.tip.append(t);
    }
    for (const row of hit.rows) {
      const line = document.createElement('div');
      const dot = document.createElement('span');
      Object.assign(dot.style, {
        display: 'inline-block',
        width: '8px',
        height: '8px',
        borderRadius: '50%',
        background: row.color,
        marginRight: '6px',
      });
      const value = document.createElement('b');
      value.textContent = row.value;
      value.style.marginLeft = '16px';
      line.append(dot, row.name, value);
      this.tip.append(line);
    }
    this.tip.style.display = 'block';
    const w = this.tip.offsetWidth;
    this.tip.style.left = `${x + 16 + w > r.width ? Math.max(0, x - 16 - w) : x + 16}px`;
    this.tip.style.top = `${Math.max(0, y - this.tip.offsetHeight - 8)}px`;
  };

  private onLeave = () => {
    this.tip.style.display = 'none';
    if (this.pointer !== undefined) {
      this.pointer = undefined;
      this.draw();
    }
  };

  private draw(): void {
    const option = this.option;
    if (!option) return;
    const width = this.box.clientWidth;
    const height = this.box.clientHeight;
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.max(1, Math.round(width * dpr));
    this.canvas.height = Math.max(1, Math.round(height * dpr));
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.font = FONT;
    const series = option.series ?? [];
    const colors = option.color ?? ['#1ab394'];
    if (series[0]?.type === 'pie') {
      this.hitTest = drawRing(ctx, series[0], colors, width, height);
      return;
    }
    this.drawLegend(ctx, option, series, colors, width, height);
    this.hitTest = drawCartesian(ctx, option, series, colors, width, height, this.pointer);
  }

  private drawLegend(ctx: Ctx, option: ChartOption, series: Series[], colors: string[], w: number, h: number): void {
    const legend = option.legend;
    if (!legend || legend.show === false) return;
    const items = series.map((s, i) => ({
      name: s.name ?? '',
      color: colors[i % colors.length]!,
      line: s.type === 'line',
    }));
    const widths = items.map((it) => 25 + 5 + ctx.measureText(it.name).width);
    const total = widths.reduce((a, b) => a + b, 0) + 10 * (items.length - 1);
    let x = legend.right !== undefined ? w - px(legend.right, w, 0) - total : px(legend.left, w, 0) + 5;
    const y = legend.bottom !== undefined ? h - px(legend.bottom, h, 0) - 10 : px(legend.top, h, 0) + 10;
    ctx.textBaseline = 'middle';
    items.forEach((it, i) => {
      ctx.strokeStyle = it.color;
      ctx.fillStyle = it.color;
      if (it.line) {
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.moveTo(x, y);
        ctx.lineTo(x + 25, y);
        ctx.stroke();
        ctx.beginPath();
        ctx.arc(x + 12.5, y, 4, 0, Math.PI * 2);
        ctx.fillStyle = '#fff';
        ctx.fill();
        ctx.stroke();
      } else {
        ctx.beginPath();
        ctx.roundRect(x, y - 7, 25, 14, 3);
        ctx.fill();
      }
      ctx.fillStyle = LEGEND_TEXT;
      ctx.textAlign = 'left';
      ctx.fillText(it.name, x + 30, y);
      x += widths[i]! + 10;
    });
  }
}

function drawRing(
  ctx: Ctx,
  s: PieSeries,
  colors: string[],
  w: number,
  h: number,
): (x: number, y: number) => Hit | undefined {
  const cx = w / 2;
  const cy = h / 2;
  const half = Math.min(w, h) / 2;
  const [inner, outer] = (s.radius ?? ['0%', '75%']).map((r) => px(r, half, half)) as [number, number];
  const items: PieItem[] = s.data ?? [];
  const total = items.reduce((a, it) => a + Math.max(0, it.value), 0);
  const slices: { from: number; to: number; item: PieItem; color: string }[] = [];
  let angle = -Math.PI / 2;
  items.forEach((it, i) => {
    const color = it.itemStyle?.color ?? colors[i % colors.length]!;
    // A whole of zero is drawn as one full ring in the first item's colour (the empty track).
    const part = total > 0 ? Math.max(0, it.value) / total : i === 0 ? 1 : 0;
    if (part <= 0) return;
    slices.push({ from: angle, to: angle + part * Math.PI * 2, item: it, color });
    angle += part * Math.PI * 2;
  });
  for (const sl of slices) {
    ctx.beginPath();
    ctx.arc(cx, cy, outer, sl.from, sl.to);
    ctx.arc(cx, cy, inner, sl.to, sl.from, true);
    ctx.closePath();
    ctx.fillStyle = sl.color;
    ctx.fill();
  }
  const label = s.label;
  if (label?.show && label.position === 'center') {
    const text = typeof label.formatter === 'function' ? label.formatter() : (label.formatter ?? '');
    ctx.font = `${label.fontWeight ?? 'normal'} ${label.fontSize ?? 12}px ${FONT.replace(/^12px /, '')}`;
    ctx.fillStyle = label.color ?? '#333';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, cx, cy);
  }
  if (s.silent) return () => undefined;
  return (x, y) => {
    const r = Math.hypot(x - cx, y - cy);
    if (r < inner || r > outer) return undefined;
    let a = Math.atan2(y - cy, x - cx);
    if (a < -Math.PI / 2) a += Math.PI * 2;
    const sl = slices.find((z) => a >= z.from && a < z.to);
    if (!sl) return undefined;
    const pct = total ? Math.round((sl.item.value / total) * 1000) / 10 : 0;
    return { rows: [{ color: sl.color, name: sl.item.name, value: `${sl.item.value} (${pct}%)` }] };
  };
}

function drawCartesian(
  ctx: Ctx,
  option: ChartOption,
  series: Series[],
  colors: string[],
  w: number,
  h: number,
  pointer: number | undefined,
): (x: number, y: number) => Hit | undefined {
  const grid = option.grid ?? {};
  const plot: Box = {
    x: px(grid.left, w, 40),
    y: px(grid.top, h, 32),
    w: 0,
    h: 0,
  };
  plot.w = w - plot.x - px(grid.right, w, 16);
  plot.h = h - plot.y - px(grid.bottom, h, 24);
  const x = option.xAxis ?? {};
  const y = option.yAxis ?? {};
  const colorOf = (i: number) => colors[i % colors.length]!;
  if (x.type === 'value') return drawStacked(ctx, option, series as BarSeries[], colorOf, plot);
  return drawColumns(ctx, option, series, colorOf, plot, x, y, pointer);
}

/** One 100 % stacked horizontal bar (the asset types' shares). */
function drawStacked(
  ctx: Ctx,
  option: ChartOption,
  series: BarSeries[],
  colorOf: (i: number) => string,
  plot: Box,
): (x: number, y: number) => Hit | undefined {
  const max = option.xAxis?.max ?? series.reduce((a, s) => a + (s.data[0] ?? 0), 0);
  const bh = series[0]?.barWidth ?? 20;
  const top = plot.y + (plot.h - bh) / 2;
  const parts: { from: number; to: number; s: BarSeries; color: string }[] = [];
  let at = plot.x;
  series.forEach((s, i) => {
    const wv = max ? ((s.data[0] ?? 0) / max) * plot.w : 0;
    ctx.fillStyle = colorOf(i);
    ctx.fillRect(at, top, wv, bh);
    parts.push({ from: at, to: at + wv, s, color: colorOf(i) });
    at += wv;
  });
  const format = option.tooltip?.formatter;
  return (px2, py) => {
    if (py < top || py > top + bh) return undefined;
    const p = parts.find((z) => px2 >= z.from && px2 < z.to);
    if (!p) return undefined;
    const c = String(p.s.data[0] ?? 0);
    const text = format ? format.replace('{a}', p.s.name ?? '').replace('{c}', c) : `${p.s.name ?? ''}: ${c}`;
    return { rows: [{ color: p.color, name: text, value: '' }] };
  };
}

/** Lines and columns over categories on x, a value axis on y. */
function drawColumns(
  ctx: Ctx,
  option: ChartOption,
  series: Series[],
  colorOf: (i: number) => string,
  plot: Box,
  x: AxisOption,
  y: AxisOption,
  pointer: number | undefined,
): (px: number, py: number) => Hit | undefined {
  const cats = x.data ?? [];
  const n = Math.max(cats.length, ...series.map((s) => s.data.length), 1);
  const max = Math.max(0, ...series.flatMap((s) => s.data as number[]));
  const ticks = valueTicks(max, y.minInterval);
  const top = ticks[ticks.length - 1]!;
  const yOf = (v: number) => plot.y + plot.h - (v / top) * plot.h;
  const gap = x.boundaryGap ?? series.some((s) => s.type === 'bar');
  const band = plot.w / (gap ? n : Math.max(1, n - 1));
  const xOf = (i: number) => (gap ? plot.x + band * (i + 0.5) : n === 1 ? plot.x + plot.w / 2 : plot.x + band * i);

  // Grid lines and the value labels.
  ctx.lineWidth = 1;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const t of ticks) {
    const ty = Math.round(yOf(t)) + 0.5;
    ctx.strokeStyle = t === 0 ? AXIS_TEXT : SPLIT_LINE;
    ctx.beginPath();
    ctx.moveTo(plot.x, ty);
    ctx.lineTo(plot.x + plot.w, ty);
    ctx.stroke();
    ctx.fillStyle = AXIS_TEXT;
    ctx.fillText(String(t), plot.x - 8, ty);
  }
  // Category labels, as many as fit.
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  const labelW = Math.max(...cats.map((c) => ctx.measureText(c).width), 1) + 8;
  const every = Math.max(1, Math.ceil(labelW / (plot.w / n)));
  cats.forEach((c, i) => {
    if (i % every === 0) ctx.fillText(c, xOf(i), plot.y + plot.h + 6);
  });
  if (pointer !== undefined) {
    ctx.save();
    ctx.setLineDash([4, 4]);
    ctx.strokeStyle = '#aaa';
    ctx.beginPath();
    ctx.moveTo(Math.round(xOf(pointer)) + 0.5, plot.y);
    ctx.lineTo(Math.round(xOf(pointer)) + 0.5, plot.y + plot.h);
    ctx.stroke();
    ctx.restore();
  }

  series.forEach((s, si) => {
    const color = colorOf(si);
    if (s.type === 'bar') {
      const bw = Math.min(s.barMaxWidth ?? Infinity, band * 0.6);
      const radius = s.itemStyle?.borderRadius ?? 0;
      s.data.forEach((v, i) => {
        const bx = xOf(i) - bw / 2;
        const by = yOf(v);
        const bar = { x: bx, y: by, w: bw, h: plot.y + plot.h - by };
        if (bar.h <= 0) return;
        ctx.fillStyle = fill(ctx, s.itemStyle?.color, bar, color);
        ctx.beginPath();
        ctx.roundRect(bar.x, bar.y, bar.w, bar.h, radius);
        ctx.fill();
      });
      return;
    }
    const line = s as LineSeries;
    const pts = line.data.map((v, i) => [xOf(i), yOf(v)] as [number, number]);
    if (!pts.length) return;
    if (line.areaStyle) {
      ctx.beginPath();
      curve(ctx, pts, Boolean(line.smooth));
      ctx.lineTo(pts[pts.length - 1]![0], plot.y + plot.h);
      ctx.lineTo(pts[0]![0], plot.y + plot.h);
      ctx.closePath();
      ctx.fillStyle = fill(ctx, line.areaStyle.color, plot, color);
      ctx.fill();
    }
    ctx.strokeStyle = color;
    ctx.lineWidth = 2;
    ctx.beginPath();
    curve(ctx, pts, Boolean(line.smooth));
    ctx.stroke();
    const r = (line.symbolSize ?? 4) / 2;
    for (const [px2, py] of pts) {
      ctx.beginPath();
      ctx.arc(px2, py, r, 0, Math.PI * 2);
      ctx.fillStyle = '#fff';
      ctx.fill();
      ctx.lineWidth = 1.5;
      ctx.stroke();
    }
  });

  return (px2, py) => {
    if (px2 < plot.x - band / 2 || px2 > plot.x + plot.w + band / 2 || py < plot.y || py > plot.y + plot.h)
      return undefined;
    let best = 0;
    for (let i = 1; i < n; i++) if (Math.abs(xOf(i) - px2) < Math.abs(xOf(best) - px2)) best = i;
    return {
      title: cats[best],
      axisX: best,
      rows: series.map((s, si) => ({ color: colorOf(si), name: s.name ?? '', value: String(s.data[best] ?? '-') })),
    };
  };
}

export function init(box: HTMLElement): CanvasChart {
  return new CanvasChart(box);
}

export type { CanvasChart };
