/**
 * Cloud sync strategies (docs/cloud.md): rules over an instance's attributes decide which nodes,
 * platform, labels, protocols and accounts its asset gets. Pure: no database, no clock.
 *
 * - A strategy matches when all its rules match (`rule_relation` `and`) or any does (`or`); a
 *   strategy without rules matches every instance.
 * - Strategies are applied in priority order (smaller number first, then name): single values
 *   (platform) are taken from the first matching strategy that sets one; lists (nodes, labels,
 *   accounts) are the union in that order; a protocol's port comes from the first that names it.
 */

export interface CloudInstance {
  /** The provider's own id (EC2 `i-...`, `lan` the address). */
  instance_id: string;
  name: string;
  address: string;
  region: string;
  /** `linux`, `windows`... as the provider reports it ('' when unknown). */
  os: string;
  tags: Record<string, string>;
}

export const RULE_ATTRS = ['name', 'address', 'region', 'os', 'instance_id', 'tag'] as const;
export const RULE_MATCHES = ['equals', 'not_equals', 'contains', 'startswith', 'endswith', 'regex', 'in'] as const;
export const ACTION_ATTRS = ['node', 'platform', 'label', 'protocol', 'account'] as const;

export interface StrategyRule {
  attr: (typeof RULE_ATTRS)[number];
  /** The tag's key when `attr` is `tag`. */
  key?: string;
  match: (typeof RULE_MATCHES)[number];
  value: string;
}

export interface StrategyAction {
  attr: (typeof ACTION_ATTRS)[number];
  /** node id, platform id, label `name:value`, protocol `name/port`, account template id. */
  value: string;
}

export interface Strategy {
  id: string;
  name: string;
  priority: number;
  rule_relation: 'and' | 'or';
  rules: StrategyRule[];
  actions: StrategyAction[];
}

export interface Decision {
  nodes: string[];
  platform?: string;
  labels: string[];
  protocols: { name: string; port: number }[];
  accounts: string[];
  /** Names of the strategies that matched, in the order applied. */
  matched: string[];
}

/** Longest pattern a `regex` rule may hold; instance attributes are cut at 256 characters before matching. */
export const MAX_PATTERN = 200;
const MAX_SUBJECT = 256;
const NESTED_REPEAT = /\([^)]*[*+}][^)]*\)\s*[*+{]/;

/** A rule's problem, or undefined when it is well formed (checked when a strategy is saved). */
export function ruleProblem(r: StrategyRule): string | undefined {
  if (!RULE_ATTRS.includes(r.attr)) return `unknown attribute ${String(r.attr)}`;
  if (!RULE_MATCHES.includes(r.match)) return `unknown match ${String(r.match)}`;
  if (r.attr === 'tag' && !r.key) return 'a tag rule needs the tag key';
  if (typeof r.value !== 'string') return 'the value must be text';
  if (r.match === 'regex') {
    if (r.value.length > MAX_PATTERN) return `a pattern is at most ${MAX_PATTERN} characters`;
    // Patterns that can backtrack without end on a hostile name: a repeated group holding a
    // repetition, and back-references. Refused rather than run on every instance of a sync.
    if (NESTED_REPEAT.test(r.value) || /\\[1-9k]/.test(r.value)) return `the pattern may run too long: ${r.value}`;
    try {
      new RegExp(r.value, 'u');
    } catch {
      return `not a regular expression: ${r.value}`;
    }
  }
  return undefined;
}

export function actionProblem(a: StrategyAction): string | undefined {
  if (!ACTION_ATTRS.includes(a.attr)) return `unknown action ${String(a.attr)}`;
  if (typeof a.value !== 'string' || !a.value) return 'the value is required';
  if (a.attr === 'protocol' && !parseProtocol(a.value)) return `a protocol is name/port: ${a.value}`;
  if (a.attr === 'label' && !a.value.includes(':')) return `a label is name:value: ${a.value}`;
  return undefined;
}

export function parseProtocol(v: string): { name: string; port: number } | undefined {
  const m = /^([a-z][a-z0-9_]{0,31})\/(\d{1,5})$/.exec(v.trim());
  const port = m ? Number(m[2]) : 0;
  return m && port >= 1 && port <= 65535 ? { name: m[1]!, port } : undefined;
}

function subject(i: CloudInstance, r: StrategyRule): string | undefined {
  const v = r.attr === 'tag' ? i.tags[r.key ?? ''] : i[r.attr];
  return v === undefined ? undefined : String(v).slice(0, MAX_SUBJECT);
}

export function ruleMatches(i: CloudInstance, r: StrategyRule): boolean {
  const s = subject(i, r);
  // A missing tag matches nothing but "not equals".
  if (s === undefined) return r.match === 'not_equals';
  const low = s.toLowerCase();
  const v = r.value.toLowerCase();
  switch (r.match) {
    case 'equals':
      return low === v;
    case 'not_equals':
      return low !== v;
    case 'contains':
      return low.includes(v);
    case 'startswith':
      return low.startsWith(v);
    case 'endswith':
      return low.endsWith(v);
    case 'in':
      return v
        .split(',')
        .map((x) => x.trim())
        .includes(low);
    case 'regex':
      if (ruleProblem(r)) return false;
      return new RegExp(r.value, 'iu').test(s);
    default:
      return false;
  }
}

export function strategyMatches(i: CloudInstance, s: Strategy): boolean {
  if (!s.rules.length) return true;
  return s.rule_relation === 'or' ? s.rules.some((r) => ruleMatches(i, r)) : s.rules.every((r) => ruleMatches(i, r));
}

export function byPriority(a: Strategy, b: Strategy): number {
  return a.priority - b.priority || a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
}

export function decide(i: CloudInstance, strategies: Strategy[]): Decision {
  const d: Decision = { nodes: [], labels: [], protocols: [], accounts: [], matched: [] };
  const add = (list: string[], v: string) => void (list.includes(v) || list.push(v));
  for (const s of [...strategies].sort(byPriority)) {
    if (!strategyMatches(i, s)) continue;
    d.matched.push(s.name);
    for (const a of s.actions) {
      if (actionProblem(a)) continue;
      if (a.attr === 'node') add(d.nodes, a.value);
      else if (a.attr === 'platform') d.platform ??= a.value;
      else if (a.attr === 'label') add(d.labels, a.value);
      else if (a.attr === 'account') add(d.accounts, a.value);
      else {
        const p = parseProtocol(a.value)!;
        if (!d.protocols.some((x) => x.name === p.name)) d.protocols.push(p);
      }
    }
  }
  return d;
}
