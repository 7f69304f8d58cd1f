import type { Language, StorageMetaField } from '@gatehouse/contract';
import type { SecretBox } from '../../../platform/crypto/secretBox.ts';
import { tr } from '../../../platform/i18n/catalogue.ts';
import { SM } from './messages.ts';

/**
 * A storage's settings (`meta`) against its type's declaration (contract `REPLAY_STORAGE_META`,
 * `COMMAND_STORAGE_META`): checked, stored with secrets sealed, answered without them, opened
 * only for the store's client.
 */
/** An http(s) address without credentials (they go in their own, sealed, fields). */
const URL_RE = /^https?:\/\/[^\s/?#@]+(\/[^\s@]*)?$/i;

export type Meta = Record<string, string>;

/** Checks a storage's settings for its type; answers field errors keyed by meta field. */
export function checkMeta(fields: readonly StorageMetaField[], meta: unknown, lang: Language): Record<string, string> {
  const errors: Record<string, string> = {};
  const m = meta && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Record<string, unknown>) : {};
  for (const f of fields) {
    const v = m[f.name];
    if (v !== undefined && v !== null && (typeof v !== 'string' || v.length > 1024)) {
      errors[f.name] = tr(lang, SM.meta_text);
      continue;
    }
    const s = typeof v === 'string' ? v.trim() : '';
    if (!s) continue;
    if (f.url && !URL_RE.test(s)) errors[f.name] = tr(lang, SM.meta_url);
    if (f.urls && !s.split(',').every((u) => URL_RE.test(u.trim()))) errors[f.name] = tr(lang, SM.meta_url);
    if (f.choices && !f.choices.includes(s))
      errors[f.name] = tr(lang, SM.meta_choice, { choices: f.choices.join(', ') });
  }
  return errors;
}

/**
 * The stored meta of an accepted input: only the type's fields, trimmed; secrets sealed, an empty
 * secret keeping the one stored before (a form never shows it back); required ones checked last.
 */
export function sealMeta(
  fields: readonly StorageMetaField[],
  input: Record<string, unknown>,
  before: Meta,
  box: SecretBox,
  lang: Language,
): { meta?: Meta; errors?: Record<string, string> } {
  const out: Meta = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const raw = input[f.name];
    const v = typeof raw === 'string' ? raw.trim() : '';
    if (f.secret) {
      if (v) out[f.name] = box.encrypt(v);
      else if (before[f.name]) out[f.name] = before[f.name]!;
    } else if (v) out[f.name] = v;
    else if (f.default) out[f.name] = f.default;
    if (f.required && !out[f.name]) errors[f.name] = tr(lang, SM.meta_required);
  }
  return Object.keys(errors).length ? { errors } : { meta: out };
}

/** The meta as answered: secrets left out. */
export function publicMeta(fields: readonly StorageMetaField[], stored: Meta): Meta {
  const out: Meta = {};
  for (const f of fields) if (!f.secret && stored[f.name] !== undefined) out[f.name] = stored[f.name]!;
  return out;
}

export function parseMeta(text: unknown): Meta {
  try {
    const v = JSON.parse(String(text ?? '{}')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Meta) : {};
  } catch {
    return {};
  }
}

/** The meta with its secrets opened, for the store client only. */
export function openedMeta(fields: readonly StorageMetaField[], stored: Meta, box: SecretBox): Meta {
  const out = { ...stored };
  for (const f of fields) if (f.secret && out[f.name]) out[f.name] = box.decrypt(out[f.name]!);
  return out;
}
