import { hasNestedQuantifier } from './commandGroup.ts';
import { ipInGroup } from './ipGroup.ts';

/**
 * The original's JSON many-to-many selectors for users and assets:
 * `{"type": "all"}`, `{"type": "ids", "ids": [...]}` or
 * `{"type": "attrs", "attrs": [{"name", "match", "value"}]}` (every rule must hold).
 * An object is described by its attributes as plain values: strings, numbers, or lists of ids
 * and names for relations (groups, nodes, labels, roles); see `userAttrs`/`assetAttrs` where
 * the module loads them.
 */
export type Selector = { type: 'all' } | { type: 'ids'; ids: string[] } | { type: 'attrs'; attrs: AttrRule[] };

export const MATCHES = [
  'exact',
  'contains',
  'startswith',
  'endswith',
  'regex',
  'not',
  'in',
  'm2m',
  'ip_in',
  'gte',
  'lte',
  'gt',
  'lt',
] as const;
export type MatchKind = (typeof MATCHES)[number];

export interface AttrRule {
  name: string;
  match: MatchKind;
  value: unknown;
}

export type Attrs = Record<string, unknown>;

export type SelectorError =
  | { code: 'selector_type' }
  | { code: 'selector_ids_empty' }
  | { code: 'selector_attrs_empty' }
  | { code: 'selector_attr_name'; value: string }
  | { code: 'selector_attr_match'; value: string }
  | { code: 'selector_attr_regex'; value: string };

/** Checks a selector against the attribute names the kind has; returns the normalised form. */
export function checkSelector(
  raw: unknown,
  attrNames: readonly string[],
): { value: Selector } | { error: SelectorError } {
  const s = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
  switch (s?.type) {
    case 'all':
      return { value: { type: 'all' } };
    case 'ids': {
      const ids = Array.isArray(s.ids)
        ? s.ids.map((i) => (i && typeof i === 'object' ? String((i as { id?: unknown }).id ?? '') : String(i)))
        : [];
      const clean = [...new Set(ids.filter(Boolean))];
      return clean.length ? { value: { type: 'ids', ids: clean } } : { error: { code: 'selector_ids_empty' } };
    }
    case 'attrs': {
      const attrs = Array.isArray(s.attrs) ? s.attrs : [];
      if (!attrs.length) return { error: { code: 'selector_attrs_empty' } };
      const out: AttrRule[] = [];
      for (const a of attrs) {
        const r = (a && typeof a === 'object' ? a : {}) as Record<string, unknown>;
        const name = String(r.name ?? '');
        if (!attrNames.includes(name)) return { error: { code: 'selector_attr_name', value: name } };
        const match = String(r.match ?? 'exact') as MatchKind;
        if (!MATCHES.includes(match)) return { error: { code: 'selector_attr_match', value: match } };
        if (match === 'regex') {
          try {
            new RegExp(String(r.value ?? ''));
          } catch {
            return { error: { code: 'selector_attr_regex', value: String(r.value ?? '') } };
          }
          if (hasNestedQuantifier(String(r.value ?? '')))
            return { error: { code: 'selector_attr_regex', value: String(r.value ?? '') } };
        }
        out.push({ name, match, value: r.value ?? '' });
      }
      return { value: { type: 'attrs', attrs: out } };
    }
    default:
      return { error: { code: 'selector_type' } };
  }
}

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

function ruleHolds(rule: AttrRule, attrs: Attrs): boolean {
  const actual = attrs[rule.name];
  const want = rule.value;
  // A relation (a list) holds when any of its values satisfies the rule (Django's `groups__name=x`).
  const values = Array.isArray(actual) ? actual : [actual];
  const any = (test: (v: unknown) => boolean) => values.some(test);
  switch (rule.match) {
    case 'exact':
      return any((v) => str(v) === str(want));
    case 'not':
      return !any((v) => str(v) === str(want));
    case 'contains':
      return any((v) => str(v).includes(str(want)));
    case 'startswith':
      return any((v) => str(v).startsWith(str(want)));
    case 'endswith':
      return any((v) => str(v).endsWith(str(want)));
    case 'regex': {
      let re: RegExp;
      try {
        re = new RegExp(str(want));
      } catch {
        return false;
      }
      return any((v) => re.test(str(v)));
    }
    case 'in':
    case 'm2m': {
      const wanted = new Set(asList(want).map(str));
      return any((v) => wanted.has(str(v)));
    }
    case 'ip_in':
      return any((v) => ipInGroup(str(v), asList(want).map(str)));
    case 'gte':
    case 'lte':
    case 'gt':
    case 'lt': {
      const w = Number(want);
      return any((v) => {
        const n = Number(v);
        if (Number.isNaN(n) || Number.isNaN(w)) return false;
        return rule.match === 'gte' ? n >= w : rule.match === 'lte' ? n <= w : rule.match === 'gt' ? n > w : n < w;
      });
    }
  }
}

/** Whether an object (its id and attributes) is selected. */
export function selects(selector: Selector | undefined | null, id: string, attrs: Attrs): boolean {
  if (!selector) return false;
  switch (selector.type) {
    case 'all':
      return true;
    case 'ids':
      return selector.ids.includes(id);
    case 'attrs':
      return selector.attrs.length > 0 && selector.attrs.every((r) => ruleHolds(r, attrs));
  }
}

/**
 * Accounts of login-asset and command-filter rules: a list of account usernames (or aliases);
 * `@ALL` or `*` selects every account.
 */
export function selectsAccount(accounts: readonly string[], account: { username: string; alias?: string }): boolean {
  return accounts.some(
    (a) => a === '@ALL' || a === '*' || a === account.username || (!!account.alias && a === account.alias),
  );
}
