import { translator } from '@gatehouse/contract';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type automationMessages from '../../platform/i18n/locales/en/automations.json';

/** Labels and messages of account automations, in three languages. */
export const AM = catalogue<typeof automationMessages>('automations');
export const am = translator(AM);
