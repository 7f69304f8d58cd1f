import { parse } from 'node:querystring';

/**
 * The query-string parser of every route: one string per key, the last one when a key repeats
 * (as Django's `QueryDict.get`), so no handler ever meets an array where it expects a string.
 * Keys that would reach an object's prototype are dropped.
 */
export function parseQueryString(raw: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  const parsed = parse(raw);
  for (const key of Object.keys(parsed)) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    const v = parsed[key];
    out[key] = Array.isArray(v) ? (v[v.length - 1] ?? '') : (v ?? '');
  }
  return out;
}
