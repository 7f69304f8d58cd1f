import type { FieldMetaMap, FilterTag, Query } from './types.ts';

/** A field the list can be filtered by, with its values when they are a fixed set. */
export interface FilterOption {
  value: string;
  label: string;
  children?: { value: string; label: string }[];
}

export const SEARCH_KEY = 'search';

/** Options from every `actions.GET` field with `filter: true`; booleans offer Yes/No. */
export function filterOptions(
  getMeta: FieldMetaMap,
  yesNo: [string, string],
  opts: { extra?: FilterOption[]; exclude?: string[] } = {},
): FilterOption[] {
  const exclude = new Set(opts.exclude ?? []);
  const fromMeta = Object.entries(getMeta)
    .filter(([name, m]) => m.filter && !exclude.has(name))
    .map(([name, m]): FilterOption => {
      const option: FilterOption = { value: name, label: m.label ?? name };
      if (m.type === 'boolean')
        option.children = [
          { value: 'true', label: yesNo[0] },
          { value: 'false', label: yesNo[1] },
        ];
      else if (m.choices?.length) {
        option.children = m.choices.map((c) => ({
          value: typeof c.value === 'boolean' ? (c.value ? 'True' : 'False') : String(c.value),
          label: c.label,
        }));
      }
      return option;
    });
  return [...fromMeta, ...(opts.extra ?? [])];
}

/** Adds a tag: values are trimmed; empty values and duplicates are ignored; a field keeps one value. */
export function addTag(tags: readonly FilterTag[], tag: FilterTag): FilterTag[] {
  const value = tag.value.trim();
  if (!value) return [...tags];
  if (tags.some((t) => t.key === tag.key && t.value === value)) return [...tags];
  const next = { ...tag, value, valueLabel: tag.valueLabel.trim() || value };
  if (tag.key === SEARCH_KEY) return [...tags, next];
  const at = tags.findIndex((t) => t.key === tag.key);
  return at < 0 ? [...tags, next] : tags.map((t, i) => (i === at ? next : t));
}

export function searchTag(text: string): FilterTag {
  return { key: SEARCH_KEY, label: '', value: text, valueLabel: text };
}

/** Free-text tags become `search=a,b`; a field tag becomes `<field>=<value>`. */
export function tagsToQuery(tags: readonly FilterTag[]): Query {
  const q: Query = {};
  const search = tags.filter((t) => t.key === SEARCH_KEY).map((t) => t.value);
  if (search.length) q[SEARCH_KEY] = search.join(',');
  for (const t of tags) if (t.key !== SEARCH_KEY) q[t.key] = t.value;
  return q;
}

/** Tags from an address query: `search` and the keys that name a filter option. */
export function queryToTags(query: URLSearchParams, options: readonly FilterOption[]): FilterTag[] {
  let tags: FilterTag[] = [];
  for (const text of (query.get(SEARCH_KEY) ?? '').split(',')) tags = addTag(tags, searchTag(text));
  for (const o of options) {
    const value = query.get(o.value);
    if (value === null) continue;
    const child = o.children?.find((c) => c.value === value);
    tags = addTag(tags, { key: o.value, label: o.label, value, valueLabel: child?.label ?? value });
  }
  return tags;
}

/** The keys of an address query that belong to the search (to replace them without touching others). */
export function isSearchKey(key: string, options: readonly FilterOption[]): boolean {
  return key === SEARCH_KEY || options.some((o) => o.value === key);
}
