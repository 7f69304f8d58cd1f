import { randomUUID } from 'node:crypto';
import type { Language, SettingField, SettingFields } from '@gatehouse/contract';
import { parseBool } from '../../resource/coerce.ts';
import { rt } from '../../resource/messages.ts';
import { catalogue, tr } from '../../platform/i18n/catalogue.ts';
import type settingsMessages from '../../platform/i18n/locales/en/settings.json';
import { FIELD_CHECKS } from './ldapChecks.ts';

export const SM = catalogue<typeof settingsMessages>('settings');

type Checked = { value: unknown } | { error: string };

function checkUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * A DNS host name as WebAuthn takes for a relying-party id: labels of letters, digits and inner
 * hyphens, at most 63 characters each, not an IPv4 address (browsers refuse addresses there).
 */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
export function checkHostName(s: string): boolean {
  const labels = s.split('.');
  return s.length <= 253 && labels.every((l) => LABEL.test(l)) && !/^\d+$/.test(labels[labels.length - 1]!);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A JSON object (or its text) of string values holding the required keys. */
function checkJson(field: { required?: readonly string[] }, raw: unknown, lang: Language): Checked {
  let v = raw;
  if (typeof raw === 'string') {
    try {
      v = JSON.parse(raw);
    } catch {
      return { error: tr(lang, SM.invalid_json) };
    }
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { error: tr(lang, SM.invalid_json) };
  const obj = v as Record<string, unknown>;
  if (Object.values(obj).some((x) => typeof x !== 'string' || x.trim() === ''))
    return { error: tr(lang, SM.map_values) };
  const missing = (field.required ?? []).find((k) => !(k in obj));
  if (missing) return { error: tr(lang, SM.map_requires, { key: missing }) };
  return { value: Object.fromEntries(Object.entries(obj).map(([k, x]) => [k.trim(), (x as string).trim()])) };
}

function checkOrgs(raw: unknown, lang: Language): Checked {
  const list =
    typeof raw === 'string'
      ? raw
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : raw;
  if (!Array.isArray(list) || list.some((x) => typeof x !== 'string' || !UUID.test(x)))
    return { error: tr(lang, SM.invalid_orgs, { value: JSON.stringify(raw) }) };
  return { value: [...new Set(list as string[])] };
}

function checkList(field: { maxItems: number; maxLength: number }, raw: unknown, lang: Language): Checked {
  const list = typeof raw === 'string' ? raw.split(/[\n,]/) : raw;
  if (!Array.isArray(list) || list.some((x) => typeof x !== 'string')) return { error: tr(lang, SM.invalid_list) };
  const items = [...new Set((list as string[]).map((x) => x.trim()).filter(Boolean))];
  if (items.length > field.maxItems) return { error: rt(lang, 'max_length', { n: field.maxItems }) };
  const long = items.find((x) => x.length > field.maxLength);
  if (long) return { error: tr(lang, SM.list_item_too_long, { value: long.slice(0, 40), n: field.maxLength }) };
  return { value: items };
}

/** An object of declared sub-fields: each checked (a missing one is blank); `newId` gets a new id. */
function checkObject(
  field: { fields: Readonly<Record<string, SettingField>>; newId?: string },
  raw: unknown,
  lang: Language,
): Checked {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { error: tr(lang, SM.invalid_json) };
  const obj = raw as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, sub] of Object.entries(field.fields)) {
    const r = checkSetting(sub, obj[key] ?? (sub.type === 'string' ? '' : obj[key]), lang);
    if ('error' in r) problems.push(`${key}: ${r.error}`);
    else out[key] = r.value;
  }
  if (problems.length) return { error: problems.join('; ') };
  return { value: field.newId ? { [field.newId]: randomUUID(), ...out } : out };
}

/** One value against its declaration: the stored value, or the message in the caller's language. */
export function checkSetting(field: SettingField, raw: unknown, lang: Language): Checked {
  if (raw === null || raw === undefined) return { error: rt(lang, 'null') };
  switch (field.type) {
    case 'bool': {
      const b = parseBool(raw);
      return b === undefined ? { error: rt(lang, 'invalid_bool') } : { value: b };
    }
    case 'int': {
      const n =
        typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : NaN;
      if (!Number.isInteger(n)) return { error: rt(lang, 'invalid_int') };
      if (n < field.min) return { error: rt(lang, 'min_value', { n: field.min }) };
      if (n > field.max) return { error: rt(lang, 'max_value', { n: field.max }) };
      return { value: n };
    }
    case 'choice': {
      const hit = field.choices.find((c) => String(c) === String(raw).trim());
      return hit === undefined ? { error: rt(lang, 'invalid_choice', { value: String(raw) }) } : { value: hit };
    }
    case 'json':
      return checkJson(field, raw, lang);
    case 'orgs':
      return checkOrgs(raw, lang);
    case 'list':
      return checkList(field, raw, lang);
    case 'object':
      return checkObject(field, raw, lang);
    case 'string': {
      if (typeof raw !== 'string') return { error: tr(lang, SM.invalid_string) };
      const s = raw.trim();
      const allowBlank = 'allowBlank' in field && field.allowBlank === true;
      if (s === '' && !allowBlank) return { error: rt(lang, 'blank') };
      if (s.length > field.maxLength) return { error: rt(lang, 'max_length', { n: field.maxLength }) };
      if (s !== '' && 'url' in field && field.url && !checkUrl(s)) return { error: tr(lang, SM.invalid_url) };
      if ('host' in field && field.host && s !== '') {
        const host = s.toLowerCase();
        return checkHostName(host) ? { value: host } : { error: tr(lang, SM.invalid_host, { value: s.slice(0, 80) }) };
      }
      return { value: s };
    }
  }
}

export const isSecret = (field: SettingField): boolean => 'secret' in field && field.secret === true;

/**
 * A request body against a category: the values to save, or the errors per field (nothing is
 * saved then). `partial` (PATCH) checks only the keys present; PUT needs every non-secret field.
 * Keys the category does not declare are ignored; an empty secret keeps the stored one.
 */
export function validateCategory(
  fields: SettingFields,
  body: Record<string, unknown>,
  partial: boolean,
  lang: Language,
): { ok: true; values: Record<string, unknown> } | { ok: false; errors: Record<string, string[]> } {
  const values: Record<string, unknown> = {};
  const errors: Record<string, string[]> = {};
  for (const [name, field] of Object.entries(fields)) {
    if (!(name in body)) {
      if (!partial && !isSecret(field)) errors[name] = [rt(lang, 'required')];
      continue;
    }
    if (isSecret(field) && (body[name] === '' || body[name] === null)) continue;
    const r = checkSetting(field, body[name], lang);
    const problem = 'value' in r && typeof r.value === 'string' ? FIELD_CHECKS[name]?.(r.value) : undefined;
    if ('error' in r) errors[name] = [r.error];
    else if (problem) errors[name] = [tr(lang, SM[problem.key], { problem: problem.problem ?? '' })];
    else values[name] = r.value;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, values };
}
