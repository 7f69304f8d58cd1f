import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/ja';
import { LANGUAGE_COOKIE, LANGUAGE_COOKIE_VALUES, resolveLanguage, type Language } from '@gatehouse/contract';
import { getCookie, setCookie } from '../cookies.ts';
import en from './locales/en.json';
import zh from './locales/zh.json';
import ja from './locales/ja.json';

/** Language: the django_language cookie, else the browser's, else English (spec 01 §1). */
export function detectLanguage(): Language {
  return resolveLanguage(getCookie(LANGUAGE_COOKIE), navigator.languages ?? [navigator.language]);
}

const DAYJS_LOCALE: Record<Language, string> = { en: 'en', zh: 'zh-cn', ja: 'ja' };

export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', zh: '中文', ja: '日本語' };

export function initI18n(lang: Language = detectLanguage()): typeof i18n {
  if (!i18n.isInitialized) {
    void i18n.use(initReactI18next).init({
      resources: { en: { translation: en }, zh: { translation: zh }, ja: { translation: ja } },
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
