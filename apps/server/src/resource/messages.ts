import { translator } from '@gatehouse/contract';
import { catalogue } from '../platform/i18n/catalogue.ts';
import type resourceMessages from '../platform/i18n/locales/en/resource.json';

/** Validation and framework messages (DRF's texts, the JumpServer API), in three languages. */
const M = catalogue<typeof resourceMessages>('resource');

export type ResourceMessage = keyof typeof M;

export const rt = translator(M);
