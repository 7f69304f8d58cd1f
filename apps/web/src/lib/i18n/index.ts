import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import type { Locale } from 'antd/es/locale';
import type { Language } from '@gatehouse/contract';
import { detectLanguage, storeLanguage } from './languages.ts';
import type { LanguagePack } from './pack.ts';

/**
 * One chunk per language (`locales/<lang>.ts`: catalogue, antd texts, dayjs locale): a page loads the
 * language it shows before it renders (`initI18n`), and another one only when the user switches.
 */
const PACKS: Record<Language, () => Promise<{ default: LanguagePack }>> = {
  en: () => import('./locales/en.ts'),
  zh: () => import('./locales/zh.ts'),
  ja: () => import('./locales/ja.ts'),
};

export { detectLanguage, LANGUAGE_NAMES } from './languages.ts';

const packs: Partial<Record<Language, LanguagePack>> = {};

export async function loadLanguage(lang: Language): Promise<LanguagePack> {
  return (packs[lang] ??= (await PACKS[lang]()).default);
}

function apply(lang: Language, pack: LanguagePack): void {
  packs[lang] = pack;
  if (!i18n.hasResourceBundle(lang, 'translation')) i18n.addResourceBundle(lang, 'translation', pack.catalogue);
  dayjs.locale(pack.dayjs);
  document.documentElement.lang = lang;
}

/** Starts i18next with a language already loaded (component tests pass the English pack). */
export function initI18nWith(lang: Language, pack: LanguagePack): typeof i18n {
  if (!i18n.isInitialized) {
    void i18n.use(initReactI18next).init({
      resources: { [lang]: { translation: pack.catalogue } },
      lng: lang,
      fallbackLng: false,
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  }
  apply(lang, pack);
  return i18n;
}

/** Loads the page's language (see `detectLanguage`) and starts i18next with it. */
export async function initI18n(lang: Language = detectLanguage()): Promise<typeof i18n> {
  return initI18nWith(lang, await loadLanguage(lang));
}

/** Stores the choice in the cookie the server reads too, and switches the page's language. */
export async function changeLanguage(lang: Language): Promise<void> {
  storeLanguage(lang);
  apply(lang, await loadLanguage(lang));
  await i18n.changeLanguage(lang);
}

export function currentLanguage(): Language {
  return (i18n.language as Language) ?? 'en';
}

/** antd's texts for the current language (loaded with it). */
export function antdLocale(): Locale | undefined {
  return packs[currentLanguage()]?.antd;
}
