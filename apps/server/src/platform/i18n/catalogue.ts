import fs from 'node:fs';
import path from 'node:path';
import { LANGUAGES, fillText, type I18nText, type Language, type TextParams } from '@gatehouse/contract';

/**
 * Server messages: one JSON file per language and area, `locales/<lang>/<area>.json`, flat keys to
 * texts with `{name}` placeholders (the console keeps its own the same way in apps/web/src/lib/i18n).
 * English is the reference: its file gives the keys (and their TypeScript type), every other
 * language must have the same keys and placeholders (catalogue.test.ts). A new language is its
 * files plus its entry in LANGUAGES (packages/contract); no module changes.
 */
export const LOCALES_DIR = path.join(import.meta.dirname, 'locales');

export type Catalogue<T> = { readonly [K in keyof T]: I18nText };

function readArea(lang: Language, area: string): Record<string, string> {
  const file = path.join(LOCALES_DIR, lang, `${area}.json`);
  if (!fs.existsSync(file)) return {};
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
}

/**
 * The messages of one area, each as `{en, zh, ja}` ready to index by the request's language:
 * `const M = catalogue<typeof en>('users')` with `import type en from '.../locales/en/users.json'`,
 * then `M.username_invalid[req.lang]` or `tr(req.lang, M.password_failed, { times })`.
 * A text missing in a language falls back to English (the parity test keeps that from happening).
 */
export function catalogue<T extends Record<string, string>>(area: string): Catalogue<T> {
  const byLang = new Map(LANGUAGES.map((l) => [l, readArea(l, area)] as const));
  const en = byLang.get('en')!;
  if (Object.keys(en).length === 0) throw new Error(`no English catalogue for "${area}" in ${LOCALES_DIR}`);
  const out: Record<string, I18nText> = {};
  for (const key of Object.keys(en)) {
    out[key] = Object.freeze(
      Object.fromEntries(LANGUAGES.map((l) => [l, byLang.get(l)![key] ?? en[key]!])) as Record<Language, string>,
    );
  }
  return Object.freeze(out) as Catalogue<T>;
}

/** One message in one language, placeholders filled. */
export function tr(lang: Language, message: I18nText, params?: TextParams): string {
  return fillText(message[lang], params);
}

/** `translator(M)(lang, key, params)`: for code that names messages by key. */
export function translate<T>(messages: Catalogue<T>): (lang: Language, key: keyof T, params?: TextParams) => string {
  return (lang, key, params) => tr(lang, messages[key], params);
}
