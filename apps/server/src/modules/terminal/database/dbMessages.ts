import type { Language, TextParams } from '@gatehouse/contract';
import { catalogue, tr } from '../../../platform/i18n/catalogue.ts';
import type dbMessages from '../../../platform/i18n/locales/en/database.json';

const DM = catalogue<typeof dbMessages>('database');
export type DbMessageKey = keyof typeof dbMessages;

/** The database proxies' texts (sent to the client as protocol errors) in one language. */
export function dm(lang: Language, key: DbMessageKey, params?: TextParams): string {
  return tr(lang, DM[key], params);
}
