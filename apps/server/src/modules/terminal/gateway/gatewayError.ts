import type { Language, TextParams } from '@gatehouse/contract';
import { catalogue, tr } from '../../../platform/i18n/catalogue.ts';
import type terminalMessages from '../../../platform/i18n/locales/en/terminal.json';

export const TM = catalogue<typeof terminalMessages>('terminal');
export type TerminalMessageKey = keyof typeof terminalMessages;

/** The terminal catalogue's message in one language. */
export function tm(lang: Language, key: TerminalMessageKey, params?: TextParams): string {
  return tr(lang, TM[key], params);
}

/** Why a session could not start, in the user's language (`code` is the catalogue key). */
export class GatewayError extends Error {
  constructor(
    readonly code: TerminalMessageKey,
    lang: Language,
    params?: TextParams,
  ) {
    super(tm(lang, code, params));
  }
}
