import { LANGUAGE_COOKIE, LANGUAGE_COOKIE_VALUES, resolveLanguage, type Language } from '@gatehouse/contract';
import { getCookie, setCookie } from '../cookies.ts';

/**
 * The page's language without i18next: the console (`./index.ts`) and the plain-DOM login page
 * (`entries/login/`) both read and store it here.
 */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', zh: '中文', ja: '日本語' };

/** Language: the django_language cookie, else the browser's, else English. */
export function detectLanguage(): Language {
  return resolveLanguage(getCookie(LANGUAGE_COOKIE), navigator.languages ?? [navigator.language]);
}

/** Stores the choice in the cookie the server reads too. */
export function storeLanguage(lang: Language): void {
  setCookie(LANGUAGE_COOKIE, LANGUAGE_COOKIE_VALUES[lang], { maxAge: 365 * 86400 });
}
