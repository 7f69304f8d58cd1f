import { translator } from '@gatehouse/contract';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type opsMessages from '../../platform/i18n/locales/en/ops.json';

/** Messages of the ops module (tasks and their logs), in three languages. */
export const OM = catalogue<typeof opsMessages>('ops');
export const om = translator(OM);
