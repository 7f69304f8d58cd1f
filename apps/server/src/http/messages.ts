import { translator } from '@gatehouse/contract';
import { catalogue } from '../platform/i18n/catalogue.ts';
import type httpMessages from '../platform/i18n/locales/en/http.json';

/** Messages of the HTTP layer (authentication, errors, bodies), from the `http` catalogues. */
const MESSAGES = catalogue<typeof httpMessages>('http');

export type MessageKey = keyof typeof MESSAGES;

export const t = translator(MESSAGES);
