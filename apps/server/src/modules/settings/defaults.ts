import { DEFAULT_LOGIN_LIMIT_COUNT, DEFAULT_LOGIN_LIMIT_TIME_MINUTES, PRIMARY_COLOR } from '@gatehouse/contract';

/** Setting defaults; stored rows override them. */
export const SETTING_DEFAULTS = {
  SITE_URL: 'http://127.0.0.1:8080',
  /** IANA zone of time-based rules (access-control time periods); empty = the system's zone. */
  TIME_ZONE: '',
  /** Directly granted assets show under an "Ungrouped" node of the user's granted tree, not in their nodes. */
  PERM_SINGLE_ASSET_TO_UNGROUP_NODE: false,
  /** Days before an asset permission expires when its users get a site message (0: none). */
  PERM_EXPIRE_NOTIFY_DAYS: 3,
  GLOBAL_ORG_DISPLAY_NAME: '',
  HELP_DOCUMENT_URL: 'https://docs.jumpserver.org/zh/v3/',
  HELP_SUPPORT_URL: 'https://www.jumpserver.org/support/',
  SECURITY_LOGIN_LIMIT_COUNT: DEFAULT_LOGIN_LIMIT_COUNT,
  SECURITY_LOGIN_LIMIT_TIME: DEFAULT_LOGIN_LIMIT_TIME_MINUTES,
  /**
   * Failed sign-ins from one address, across usernames, before the address is locked for
   * SECURITY_LOGIN_IP_LIMIT_TIME minutes (modules/authentication/lockout.ts AddressLock). The
   * original's 99999 lets password spraying run unchecked; 50 failures in 30 minutes stops it and
   * still leaves room for an office behind one address.
   */
  SECURITY_LOGIN_IP_LIMIT_COUNT: 50,
  SECURITY_LOGIN_IP_LIMIT_TIME: DEFAULT_LOGIN_LIMIT_TIME_MINUTES,
  SECURITY_MFA_VERIFY_TTL: 3600,
  /** MFA at login: 0 per user (mfa_level), 1 every user, 2 administrators. */
  SECURITY_MFA_AUTH: 0,
  OTP_ISSUER_NAME: 'Gatehouse',
  OTP_VALID_WINDOW: 2,
  /** Seconds an SMS code stays valid. */
  VERIFY_CODE_TTL: 60,
  SMS_ENABLED: false,
  SMS_BACKEND: 'custom',
  /** Custom HTTP SMS gateway: URL, get|post, and parameters where {code} and {phone} are replaced. */
  CUSTOM_SMS_URL: '',
  CUSTOM_SMS_REQUEST_METHOD: 'post',
  CUSTOM_SMS_API_PARAMS: { phone_numbers: '{phone}', content: 'Verification code: {code}' } as Record<string, string>,
  SECURITY_PASSWORD_EXPIRATION_TIME: 9999,
  SECURITY_PASSWORD_MIN_LENGTH: 6,
  SECURITY_ADMIN_USER_PASSWORD_MIN_LENGTH: 6,
  SECURITY_PASSWORD_UPPER_CASE: false,
  SECURITY_PASSWORD_LOWER_CASE: false,
  SECURITY_PASSWORD_NUMBER: false,
  SECURITY_PASSWORD_SPECIAL_CHAR: false,
  OLD_PASSWORD_HISTORY_LIMIT_COUNT: 5,
  SECURITY_MAX_IDLE_TIME: 30,
  SECURITY_MAX_SESSION_TIME: 24,
  /** Days audit records are kept (the daily clean-up, modules/ops/retention.ts); 0 or less keeps them forever. */
  TERMINAL_SESSION_KEEP_DURATION: 200,
  LOGIN_LOG_KEEP_DAYS: 200,
  TASK_LOG_KEEP_DAYS: 90,
  OPERATE_LOG_KEEP_DAYS: 200,
  ACTIVITY_LOG_KEEP_DAYS: 200,
  FTP_LOG_KEEP_DAYS: 200,
  SECURITY_VIEW_AUTH_NEED_MFA: true,
  SECURITY_EXPORT_NEED_CONFIRM: false,
  SECURITY_COMMAND_EXECUTION: true,
  SECURITY_COMMAND_BLACKLIST: ['reboot', 'shutdown', 'poweroff', 'halt', 'dd', 'half', 'top'],
  SECURITY_LUNA_REMEMBER_AUTH: true,
  SECURITY_WATERMARK_ENABLED: true,
  SECURITY_SESSION_SHARE: true,
  /** MB: a file transferred through the gateway is kept with its ftp-log row when not larger (0: none kept). */
  FTP_FILE_MAX_STORE: 100,
  SESSION_COOKIE_AGE: 86400,
  SESSION_EXPIRE_AT_BROWSER_CLOSE: true,
  TOKEN_EXPIRATION: 86400,
  AUTH_TEMP_TOKEN: false,
  AUTH_PASSKEY: false,
  /**
   * WebAuthn relying-party id of passkeys: the site's domain (or a parent domain of it). Empty =
   * the host name of the request, which suits a single address. Changing it voids registered passkeys.
   */
  FIDO_SERVER_ID: '',
  /** The name authenticators show for this site when a passkey is registered. */
  FIDO_SERVER_NAME: 'Gatehouse',
  AUTH_WECOM: false,
  AUTH_DINGTALK: false,
  AUTH_FEISHU: false,
  TICKETS_ENABLED: true,
  TICKET_AUTHORIZE_DEFAULT_TIME: 7,
  TICKET_AUTHORIZE_DEFAULT_TIME_UNIT: 'day',
  ANNOUNCEMENT_ENABLED: false,
  ANNOUNCEMENT: { ID: '', SUBJECT: '', CONTENT: '', LINK: '' },
  CONNECTION_TOKEN_REUSABLE: false,
  /** Seconds a one-time connection token lives. */
  CONNECTION_TOKEN_ONETIME_EXPIRATION: 300,
  /** Seconds a reusable connection token lives (30 days). */
  CONNECTION_TOKEN_REUSABLE_EXPIRATION: 2592000,
  INTERFACE_LOGIN_TITLE: 'Gatehouse',
  INTERFACE_THEME: 'classic_green',
  INTERFACE_PRIMARY_COLOR: PRIMARY_COLOR,
} as const;

export type SettingName = keyof typeof SETTING_DEFAULTS;
export type SettingValue<K extends SettingName> = (typeof SETTING_DEFAULTS)[K] extends boolean
  ? boolean
  : (typeof SETTING_DEFAULTS)[K] extends number
    ? number
    : (typeof SETTING_DEFAULTS)[K] extends string
      ? string
      : (typeof SETTING_DEFAULTS)[K];
