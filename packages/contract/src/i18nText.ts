import type { Language } from './constants.ts';

/** A text given in the three languages of the product. */
export type I18nText = Readonly<Record<Language, string>>;

export const text = (en: string, zh: string, ja: string): I18nText => ({ en, zh, ja });

export type TextParams = Record<string, string | number>;

/** Fills `{name}` placeholders; unknown ones stay as written. */
export function fillText(template: string, params: TextParams = {}): string {
  return template.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

/** A translate function over one catalogue: `translator(MESSAGES)(lang, key, params)`. */
export function translator<K extends string>(
  messages: Readonly<Record<K, I18nText>>,
): (lang: Language, key: K, params?: TextParams) => string {
  return (lang, key, params = {}) => fillText(messages[key][lang], params);
}
