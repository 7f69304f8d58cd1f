import type { Language, TextParams } from '@gatehouse/contract';
import { catalogue, tr } from '../../platform/i18n/catalogue.ts';
import type aclMessages from '../../platform/i18n/locales/en/acls.json';

/** Labels and messages of the access-control rules, from the `acls` catalogues. */
export const M = catalogue<typeof aclMessages>('acls');

export type AclMessageKey = keyof typeof M;

export function am(lang: Language, key: AclMessageKey, params?: TextParams): string {
  return tr(lang, M[key], params);
}
