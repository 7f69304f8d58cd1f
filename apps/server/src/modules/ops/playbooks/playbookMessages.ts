import { translator } from '@gatehouse/contract';
import { catalogue } from '../../../platform/i18n/catalogue.ts';
import type playbookMessages from '../../../platform/i18n/locales/en/playbooks.json';

/** Messages of playbooks and their file browser, in every shipped language. */
export const PM = catalogue<typeof playbookMessages>('playbooks');
export const pm = translator(PM);
export type PlaybookMessage = keyof typeof playbookMessages;
