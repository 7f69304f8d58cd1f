import { translator } from '@gatehouse/contract';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type assetsMessages from '../../platform/i18n/locales/en/assets.json';

/** Messages of the assets module, in three languages. */
const M = catalogue<typeof assetsMessages>('assets');

export type AssetMessage = keyof typeof M;

export const am = translator(M);
