import type { Language, TextParams } from '@gatehouse/contract';
import { catalogue, tr } from '../../../platform/i18n/catalogue.ts';
import type sshMessages from '../../../platform/i18n/locales/en/ssh.json';

const SM = catalogue<typeof sshMessages>('ssh');
export type SshMessageKey = keyof typeof sshMessages;

/** The native SSH server's texts (banner, menu, prompts) in one language. */
export function sm(lang: Language, key: SshMessageKey, params?: TextParams): string {
  return tr(lang, SM[key], params);
}
