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

/**
 * An integer query value as the original reads it (Python's `int()`): surrounding whitespace
 * ignored, an optional sign, digits with single underscores between them. Anything else, or a
 * number past what JavaScript holds exactly, is undefined (the caller's "not given" or 400).
 */
export function queryInt(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const s = v.trim();
  if (!/^[+-]?\d+(?:_\d+)*$/.test(s)) return undefined;
  const n = Number(s.replaceAll('_', ''));
  return Number.isSafeInteger(n) ? n : undefined;
}

/** A switch in the query as the original's serializers read it (`1`, `true`, `yes`, `on`, `t`, `y`; any case, trimmed). */
export function queryFlag(v: string | undefined): boolean {
  return v !== undefined && TRUTHY.has(v.trim().toLowerCase());
}

const TRUTHY = new Set(['1', 'true', 'yes', 'on', 't', 'y']);
