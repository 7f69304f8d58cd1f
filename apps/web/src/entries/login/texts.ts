import type { Language } from '@gatehouse/contract';
import { detectLanguage, storeLanguage } from '../../lib/i18n/languages.ts';
import type en from '../../lib/i18n/locales/en/login.json';

/**
 * The login page's texts: the console's `login.json` of the page's language (one small chunk per
 * language), looked up by key with `{{name}}` placeholders, as i18next would.
 */
export type LoginKey = keyof typeof en;
type Texts = Record<LoginKey, string>;

const LOADERS: Record<Language, () => Promise<{ default: Texts }>> = {
  en: () => import('../../lib/i18n/locales/en/login.json'),
  zh: () => import('../../lib/i18n/locales/zh/login.json'),
  ja: () => import('../../lib/i18n/locales/ja/login.json'),
};

let lang: Language = 'en';
let texts: Texts | undefined;

export async function loadTexts(language: Language = detectLanguage()): Promise<void> {
  texts = (await LOADERS[language]()).default;
  lang = language;
  document.documentElement.lang = language;
}

/** Switches the page's language and remembers it in the cookie the server reads. */
export async function switchLanguage(language: Language): Promise<void> {
  storeLanguage(language);
  await loadTexts(language);
}

export function language(): Language {
  return lang;
}

export function t(key: LoginKey, params: Record<string, string | number> = {}): string {
  const text = texts?.[key] ?? key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}
