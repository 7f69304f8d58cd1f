import { translator } from '@gatehouse/contract';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type cloudMessages from '../../platform/i18n/locales/en/cloud.json';

/** Messages of cloud sync, in every shipped language. */
export const CM = catalogue<typeof cloudMessages>('cloud');
export const cm = translator(CM);
export type CloudMessage = keyof typeof cloudMessages;
