/** Small timing helpers for benchmarks: percentiles and a memory sampler. */
export function percentile(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

export async function timeIt(n: number, fn: () => Promise<unknown> | unknown): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

/**
 * Times `a` and `b` in turns, n runs each: a load that comes and goes (other processes on the
 * machine) then weighs on both sides alike, so their ratio stays meaningful.
 */
export async function timeInTurns(
  n: number,
  a: () => Promise<unknown> | unknown,
  b: () => Promise<unknown> | unknown,
): Promise<[number[], number[]]> {
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < n; i++) {
    ta.push(...(await timeIt(1, a)));
    tb.push(...(await timeIt(1, b)));
  }
  return [ta, tb];
}

const used = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/**
 * Peak JS memory (heap + buffers) above the level at start, sampled every 5 ms while `fn` runs.
 * Run with --expose-gc so the start level is measured after a collection.
 */
export async function peakMemory<T>(fn: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  global.gc?.();
  const base = used();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, used())), 5);
  try {
    const result = await fn();
    peak = Math.max(peak, used());
    return { result, peakMb: (peak - base) / 1024 / 1024 };
  } finally {
    clearInterval(timer);
  }
}

export const ms = (v: number) => `${v.toFixed(2)} ms`;
export const ratio = (a: number, b: number) => `${(a / Math.max(b, 0.001)).toFixed(1)}x`;

/** One result line: the API's p50/p99 next to the raw SQL's, and their p50 ratio. */
export function compareLine(what: string, api: number[], raw: number[]): void {
  console.log(
    `${what}: API p50 ${ms(percentile(api, 50))} p99 ${ms(percentile(api, 99))} | raw SQL p50 ${ms(percentile(raw, 50))} p99 ${ms(percentile(raw, 99))} | ratio p50 ${ratio(percentile(api, 50), percentile(raw, 50))}`,
  );
}
