/** Product constants of the console and the contract. */
export const PRODUCT_NAME = 'Gatehouse';
export const PRODUCT_VERSION = 'v3.7.1';
export const SOURCE_REPOSITORY_URL = 'https://github.com/gatehouse-pam/gatehouse';

export const COOKIE_PREFIX = 'jms_';
export const SESSION_COOKIE = `${COOKIE_PREFIX}sessionid`;
export const CSRF_COOKIE = `${COOKIE_PREFIX}csrftoken`;
export const SESSION_EXPIRE_COOKIE = `${COOKIE_PREFIX}session_expire`;
export const PUBLIC_KEY_COOKIE = `${COOKIE_PREFIX}public_key`;
export const PREFIX_COOKIE = 'SESSION_COOKIE_NAME_PREFIX';
export const LANGUAGE_COOKIE = 'django_language';
export const ORG_COOKIE = 'X-JMS-ORG';
export const ORG_HEADER = 'X-JMS-ORG';
export const CSRF_HEADER = 'X-CSRFToken';
export const TZ_HEADER = 'X-TZ';
export const SQL_COUNT_HEADER = 'X-JMS-SQL-COUNT';
/** Sent by the console (`1`) to ask for `X-JMS-SQL-COUNT`; answered for superusers or a server in debug mode. */
export const SQL_DEBUG_HEADER = 'X-JMS-SQL-DEBUG';

export const LOGIN_PATH = '/core/auth/login/';
export const LOGOUT_PATH = '/core/auth/logout/';
export const UI_BASE = '/ui/';

/** Default security settings. */
export const DEFAULT_LOGIN_LIMIT_COUNT = 7;
export const DEFAULT_LOGIN_LIMIT_TIME_MINUTES = 30;
export const SESSION_COOKIE_AGE_SECONDS = 86400;
export const TOKEN_EXPIRATION_SECONDS = 86400;
export const MAX_LIMIT_PER_PAGE = 100;
/**
 * The commands list counts at most this many matches (the original's Elasticsearch command storage
 * stops its total there too): a `count` of this value means "at least", and the console shows it so.
 */
export const COMMAND_COUNT_CAP = 10_000;

export const REQUEST_TIMEOUT_MS = 120_000;
export const HEARTBEAT_INTERVAL_MS = 10_000;
export const SESSION_EXPIRE_CLOSE_COOKIE_MS = 120_000;
export const ACTIVITY_TIMER_MS = 30_000;
export const MOBILE_BREAKPOINT_PX = 992;
export const PRIMARY_COLOR = '#1ab394';

/** The product's languages. A new language is added here and by adding its catalogue files. */
export const LANGUAGES = ['zh', 'en', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Values of the django_language cookie, and the UI language each maps to. */
export const LANGUAGE_COOKIE_VALUES: Record<Language, string> = { zh: 'zh-hans', en: 'en', ja: 'ja' };

export function languageFromCookie(value: string | undefined | null): Language | undefined {
  if (!value) return undefined;
  const v = value.toLowerCase();
  if (v.startsWith('zh')) return 'zh';
  if (v.startsWith('ja')) return 'ja';
  if (v.startsWith('en')) return 'en';
  return undefined;
}

/** Language from the cookie, else the browser or Accept-Language value, else English. */
export function resolveLanguage(cookie: string | undefined | null, preferred: readonly string[]): Language {
  const fromCookie = languageFromCookie(cookie);
  if (fromCookie) return fromCookie;
  for (const p of preferred) {
    const l = languageFromCookie(p);
    if (l) return l;
  }
  return 'en';
}

/** Digits of a one-time password (TOTP codes and SMS codes alike). */
export const OTP_LENGTH = 6;

/**
 * The `job_type`s of the job centre's executions (`ops_jobexecution`); the engine's queue also holds
 * account automations' executions (`change_secret`, `push_account`, `gather_accounts`), which the
 * job centre's and the job logs' lists leave out (docs/automations.md).
 */
export const JOB_CENTRE_TYPES = ['adhoc', 'playbook'] as const;
