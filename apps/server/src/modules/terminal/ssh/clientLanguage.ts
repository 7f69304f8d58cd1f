import type { Language } from '@gatehouse/contract';

/**
 * The language of a native SSH connection, from the locale the client sends in `env` requests
 * (OpenSSH's `SendEnv LANG LC_*`): LC_ALL, else LC_MESSAGES, else LANG, as POSIX ranks them.
 * `zh…` is Chinese, `ja…` Japanese, anything else (or nothing sent) English.
 */
const RANK = ['LC_ALL', 'LC_MESSAGES', 'LANG'] as const;

export function languageOfLocale(locale: string): Language {
  const l = locale.trim().toLowerCase();
  if (l.startsWith('zh')) return 'zh';
  if (l.startsWith('ja')) return 'ja';
  return 'en';
}

export class ClientLanguage {
  private readonly sent = new Map<string, string>();

  /** An `env` request; answers whether it was a locale variable. */
  set(key: string, value: string): boolean {
    if (!(RANK as readonly string[]).includes(key)) return false;
    this.sent.set(key, value);
    return true;
  }

  get lang(): Language {
    for (const k of RANK) {
      const v = this.sent.get(k);
      if (v) return languageOfLocale(v);
    }
    return 'en';
  }
}
