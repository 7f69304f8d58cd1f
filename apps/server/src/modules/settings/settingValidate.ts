import type { Language, SettingField, SettingFields } from '@gatehouse/contract';
import { parseBool } from '../../resource/coerce.ts';
import { rt } from '../../resource/messages.ts';
import { catalogue, tr } from '../../platform/i18n/catalogue.ts';
import type settingsMessages from '../../platform/i18n/locales/en/settings.json';

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
    case 'string': {
      if (typeof raw !== 'string') return { error: tr(lang, SM.invalid_string) };
      const s = raw.trim();
      const allowBlank = 'allowBlank' in field && field.allowBlank === true;
      if (s === '' && !allowBlank) return { error: rt(lang, 'blank') };
      if (s.length > field.maxLength) return { error: rt(lang, 'max_length', { n: field.maxLength }) };
      if (s !== '' && 'url' in field && field.url && !checkUrl(s)) return { error: tr(lang, SM.invalid_url) };
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
    if ('error' in r) errors[name] = [r.error];
    else values[name] = r.value;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, values };
}
