import type { Language } from './constants.ts';

/** A text given in the three languages of the product. */
export type I18nText = Readonly<Record<Language, string>>;

export const text = (en: string, zh: string, ja: string): I18nText => ({ en, zh, ja });
