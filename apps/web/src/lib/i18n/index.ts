import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/ja';
import { LANGUAGE_COOKIE, LANGUAGE_COOKIE_VALUES, resolveLanguage, type Language } from '@gatehouse/contract';
import { getCookie, setCookie } from '../cookies.ts';

/**
 * Catalogues are one JSON file per language and namespace: `locales/<lang>/<namespace>.json`.
 * Keys are used as `namespace.key` (e.g. `login.title`); each area owns its namespace files.
 */
const files = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/*.json', { eager: true });

function catalogue(lang: Language): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [file, mod] of Object.entries(files)) {
    const m = /\.\/locales\/(\w+)\/([\w-]+)\.json$/.exec(file);
    if (m && m[1] === lang) out[m[2]!] = mod.default;
  }
  return out;
}

export const CATALOGUES: Record<Language, Record<string, unknown>> = {
  en: catalogue('en'),
  zh: catalogue('zh'),
  ja: catalogue('ja'),
};

/** Language: the django_language cookie, else the browser's, else English. */
export function detectLanguage(): Language {
  return resolveLanguage(getCookie(LANGUAGE_COOKIE), navigator.languages ?? [navigator.language]);
}

const DAYJS_LOCALE: Record<Language, string> = { en: 'en', zh: 'zh-cn', ja: 'ja' };

export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', zh: '中文', ja: '日本語' };

export function initI18n(lang: Language = detectLanguage()): typeof i18n {
  if (!i18n.isInitialized) {
    void i18n.use(initReactI18next).init({
      resources: {
        en: { translation: CATALOGUES.en },
        zh: { translation: CATALOGUES.zh },
        ja: { translation: CATALOGUES.ja },
      },
      lng: lang,
      fallbackLng: 'en',
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  }
  dayjs.locale(DAYJS_LOCALE[lang]);
  document.documentElement.lang = lang;
  return i18n;
}

/** Stores the choice in the cookie the server reads too, and switches the page's language. */
export async function changeLanguage(lang: Language): Promise<void> {
  setCookie(LANGUAGE_COOKIE, LANGUAGE_COOKIE_VALUES[lang], { maxAge: 365 * 86400 });
  dayjs.locale(DAYJS_LOCALE[lang]);
  document.documentElement.lang = lang;
  await i18n.changeLanguage(lang);
}

export function currentLanguage(): Language {
  return (i18n.language as Language) ?? 'en';
}
