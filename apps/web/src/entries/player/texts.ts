import type { Language } from '@gatehouse/contract';
import { detectLanguage } from '../../lib/i18n/languages.ts';
import type en from '../../lib/i18n/locales/en/player.json';

/** The player's texts: the console's `player.json` of the page's language (one small chunk each). */
export type PlayerKey = keyof typeof en;
type Texts = Record<PlayerKey, string>;

const LOADERS: Record<Language, () => Promise<{ default: Texts }>> = {
  en: () => import('../../lib/i18n/locales/en/player.json'),
  zh: () => import('../../lib/i18n/locales/zh/player.json'),
  ja: () => import('../../lib/i18n/locales/ja/player.json'),
};

let texts: Texts | undefined;
let lang: Language = 'en';

export async function loadTexts(language: Language = detectLanguage()): Promise<void> {
  texts = (await LOADERS[language]()).default;
  lang = language;
  document.documentElement.lang = language;
}

export function language(): Language {
  return lang;
}

export function t(key: PlayerKey, params: Record<string, string | number> = {}): string {
  const text = texts?.[key] ?? key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}
