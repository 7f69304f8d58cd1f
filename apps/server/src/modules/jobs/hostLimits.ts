import type { HostResult, RunnerPlan } from '../ops/engine/runner.ts';

/**
 * One host's run under the plan's limits, for every runner that runs hosts itself (ssh, database):
 * the host's time limit (covering the connection too, so a host that never answers ends `timeout`
 * on its own) and the execution's stop signal; whichever comes first is the result, and `cleanup`
 * then ends whatever the run holds open.
 */
export async function withinLimits(
  plan: RunnerPlan,
  run: Promise<HostResult>,
  done: (status: HostResult['status'], reason: string) => HostResult,
  cleanup: () => void,
): Promise<HostResult> {
  const limits: Promise<HostResult>[] = [run];
  let timer: NodeJS.Timeout | undefined;
  if (plan.timeout > 0)
    limits.push(
      new Promise((resolve) => {
        timer = setTimeout(() => resolve(done('timeout', `no end within ${plan.timeout} s`)), plan.timeout * 1000);
      }),
    );
  let onAbort: (() => void) | undefined;
  limits.push(
    new Promise((resolve) => {
      onAbort = () => resolve(done('failed', 'stopped'));
      if (plan.signal.aborted) onAbort();
      else plan.signal.addEventListener('abort', onAbort, { once: true });
    }),
  );
  const result = await Promise.race(limits);
  if (timer) clearTimeout(timer);
  if (onAbort) plan.signal.removeEventListener('abort', onAbort);
  cleanup();
  return result;
}

/** Runs `items` through `fn`, at most `parallel` at a time, results in the order of `items`. */
export async function inParallel<T, R>(items: T[], parallel: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, items.length)) }, worker));
  return out;
}
