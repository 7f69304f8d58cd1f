import type { Language, TextParams } from '@gatehouse/contract';
import { catalogue, tr } from '../../platform/i18n/catalogue.ts';
import type permsMessages from '../../platform/i18n/locales/en/perms.json';

/** Labels and messages of asset permissions and grants, from the `perms` catalogues. */
export const M = catalogue<typeof permsMessages>('perms');

export type PermMessageKey = keyof typeof M;

export function pm(lang: Language, key: PermMessageKey, params?: TextParams): string {
  return tr(lang, M[key], params);
}
