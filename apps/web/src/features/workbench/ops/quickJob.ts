import type { LunaNode } from '../../../entries/terminal/assetTree.ts';
import { choiceValue, type Job, type JobBody } from './jobsApi.ts';

/**
 * The quick job's state without React: what is targeted (nodes and assets of the granted tree,
 * by id, with their names for the summary line), the toolbar's values, the checks before a run
 * and the body of the instant job.
 */
export interface Targets {
  nodes: Record<string, string>;
  assets: Record<string, string>;
}

export const NO_TARGETS: Targets = { nodes: {}, assets: {} };

export interface QuickJobValues {
  runas: string;
  runas_policy: string;
  module: string;
  timeout: number;
  chdir: string;
  args: string;
}

export const QUICK_JOB_DEFAULTS: QuickJobValues = {
  runas: 'root',
  runas_policy: 'skip',
  module: 'shell',
  timeout: 60,
  chdir: '',
  args: '',
};

/** The timeouts offered (seconds; -1 is none). */
export const TIMEOUTS = [10, 30, 60, 300, 600, -1] as const;

/** The id a tree node targets: a node's id, an asset's id; none for other kinds. */
function target(n: LunaNode): { kind: 'nodes' | 'assets'; id: string } | undefined {
  if (n.kind === 'node') return { kind: 'nodes', id: n.nodeId ?? n.ref };
  if (n.kind === 'asset') return { kind: 'assets', id: n.ref };
  return undefined;
}

/** A tree node checked or unchecked. */
export function toggle(t: Targets, n: LunaNode, on: boolean): Targets {
  const x = target(n);
  if (!x) return t;
  const next = { ...t[x.kind] };
  if (on) next[x.id] = n.title.replace(/\s*\(\d+\)$/, '');
  else delete next[x.id];
  return { ...t, [x.kind]: next };
}

/** The keys of the shown tree to draw checked: every place of a targeted node or asset. */
export function checkedKeys(t: Targets, shown: LunaNode[]): string[] {
  return shown.flatMap((n) => {
    const x = target(n);
    const own = x && t[x.kind][x.id] !== undefined ? [n.key] : [];
    return [...own, ...(n.children ? checkedKeys(t, n.children) : [])];
  });
}

export const targetCount = (t: Targets) => ({
  nodes: Object.keys(t.nodes).length,
  assets: Object.keys(t.assets).length,
});

/** What stops a run, as i18n keys (none: it may run). */
export function runProblems(v: QuickJobValues, t: Targets): string[] {
  const out: string[] = [];
  const n = targetCount(t);
  if (!n.nodes && !n.assets) out.push('jobs.quick.needTarget');
  if (!v.args.trim()) out.push('jobs.quick.needCommand');
  if (!v.runas.trim()) out.push('jobs.quick.needRunas');
  return out;
}

export function instantJobBody(v: QuickJobValues, t: Targets): JobBody {
  return {
    type: 'adhoc',
    module: v.module,
    args: v.args,
    runas: v.runas.trim(),
    runas_policy: v.runas_policy,
    timeout: v.timeout,
    chdir: v.chdir.trim(),
    assets: Object.keys(t.assets),
    nodes: Object.keys(t.nodes),
  };
}

/** A run reloaded from `?taskId=`: its job's values and targets (names unknown: the ids stand in). */
export function fromJob(job: Job): { values: QuickJobValues; targets: Targets } {
  const ids = (xs: unknown) =>
    Object.fromEntries(
      (Array.isArray(xs) ? xs : []).map((x: unknown) => {
        const o = x && typeof x === 'object' ? (x as { id?: string; name?: string }) : undefined;
        const id = o?.id ?? String(x);
        return [id, o?.name ?? id];
      }),
    );
  return {
    values: {
      runas: job.runas ?? QUICK_JOB_DEFAULTS.runas,
      runas_policy: choiceValue(job.runas_policy) || QUICK_JOB_DEFAULTS.runas_policy,
      module: choiceValue(job.module) || QUICK_JOB_DEFAULTS.module,
      timeout: typeof job.timeout === 'number' ? job.timeout : QUICK_JOB_DEFAULTS.timeout,
      chdir: job.chdir ?? '',
      args: job.args ?? '',
    },
    targets: { nodes: ids(job.nodes), assets: ids(job.assets) },
  };
}
