/**
 * The settings categories of `/api/v1/settings/setting/?category=<c>`: one declaration per
 * category (field name, type, range or choices, secret). The server validates, answers GET and
 * saves from it (apps/server/src/modules/settings/settingRoutes.ts); the console draws its forms
 * from it (apps/web/src/features/settings/form/). Only settings with a server default are
 * declared, never a switch nothing implements (docs/settings.md, "Settings").
 */
export type SettingField =
  | { type: 'bool' }
  | { type: 'int'; min: number; max: number }
  | { type: 'choice'; choices: readonly (string | number)[] }
  | { type: 'string'; maxLength: number; url?: boolean; allowBlank?: boolean }
  | { type: 'string'; maxLength: number; secret: true };

export type SettingFields = Readonly<Record<string, SettingField>>;

const bool = { type: 'bool' } as const;
const int = (min: number, max: number) => ({ type: 'int', min, max }) as const;
const days = int(1, 99999);

const securityPassword: SettingFields = {
  SECURITY_PASSWORD_EXPIRATION_TIME: int(1, 99999),
  OLD_PASSWORD_HISTORY_LIMIT_COUNT: int(0, 99999),
  SECURITY_PASSWORD_MIN_LENGTH: int(6, 30),
  SECURITY_ADMIN_USER_PASSWORD_MIN_LENGTH: int(6, 30),
  SECURITY_PASSWORD_UPPER_CASE: bool,
  SECURITY_PASSWORD_LOWER_CASE: bool,
  SECURITY_PASSWORD_NUMBER: bool,
  SECURITY_PASSWORD_SPECIAL_CHAR: bool,
};
const securityAuth: SettingFields = {
  SECURITY_MFA_AUTH: { type: 'choice', choices: [0, 1, 2] },
  OTP_ISSUER_NAME: { type: 'string', maxLength: 16 },
  OTP_VALID_WINDOW: int(1, 10),
  SECURITY_MFA_VERIFY_TTL: int(5, 36000),
  VERIFY_CODE_TTL: int(5, 60),
};
const securitySession: SettingFields = {
  SECURITY_WATERMARK_ENABLED: bool,
  /** Minutes. */
  SECURITY_MAX_IDLE_TIME: int(1, 99999),
  /** Hours. */
  SECURITY_MAX_SESSION_TIME: int(1, 99999),
  SECURITY_LUNA_REMEMBER_AUTH: bool,
  SECURITY_SESSION_SHARE: bool,
};
const securityLoginLimit: SettingFields = {
  SECURITY_LOGIN_LIMIT_COUNT: int(3, 99999),
  /** Minutes. */
  SECURITY_LOGIN_LIMIT_TIME: int(5, 99999),
  SECURITY_LOGIN_IP_LIMIT_COUNT: int(3, 99999),
  SECURITY_LOGIN_IP_LIMIT_TIME: int(5, 99999),
};

export const SETTING_CATEGORIES = {
  basic: {
    SITE_URL: { type: 'string', maxLength: 1024, url: true },
    GLOBAL_ORG_DISPLAY_NAME: { type: 'string', maxLength: 1024, allowBlank: true },
    HELP_DOCUMENT_URL: { type: 'string', maxLength: 1024, url: true, allowBlank: true },
    HELP_SUPPORT_URL: { type: 'string', maxLength: 1024, url: true, allowBlank: true },
  },
  security: { ...securityPassword, ...securityAuth, ...securitySession, ...securityLoginLimit },
  security_password: securityPassword,
  security_auth: securityAuth,
  security_session: securitySession,
  security_login_limit: securityLoginLimit,
  terminal: {
    CONNECTION_TOKEN_REUSABLE: bool,
    /** Seconds. */
    CONNECTION_TOKEN_ONETIME_EXPIRATION: int(5, 60 * 60 * 24),
    CONNECTION_TOKEN_REUSABLE_EXPIRATION: int(60, 60 * 60 * 24 * 365),
    /** MB; 0 keeps no files. */
    FTP_FILE_MAX_STORE: int(0, 10240),
  },
  clean: {
    LOGIN_LOG_KEEP_DAYS: days,
    TASK_LOG_KEEP_DAYS: days,
    OPERATE_LOG_KEEP_DAYS: days,
    FTP_LOG_KEEP_DAYS: days,
    TERMINAL_SESSION_KEEP_DURATION: days,
    ACTIVITY_LOG_KEEP_DAYS: days,
  },
  ticket: {
    TICKETS_ENABLED: bool,
    TICKET_AUTHORIZE_DEFAULT_TIME: int(1, 999),
    TICKET_AUTHORIZE_DEFAULT_TIME_UNIT: { type: 'choice', choices: ['day', 'hour'] },
  },
  other: { PERM_SINGLE_ASSET_TO_UNGROUP_NODE: bool },
} as const satisfies Record<string, SettingFields>;

export type SettingCategory = keyof typeof SETTING_CATEGORIES;

/** The category a request names; unknown names read and write the basic fields (as the original). */
export function settingFields(category: string): SettingFields {
  return (SETTING_CATEGORIES as Record<string, SettingFields>)[category] ?? SETTING_CATEGORIES.basic;
}

/**
 * Permission per category (`category=` absent means `basic`); categories not listed are for
 * superusers only. Writes on `basic` also need `settings.change_setting`
 * (apps/server/src/modules/settings/settingRoutes.ts).
 */
const CATEGORY_PERMS: Readonly<Record<string, string>> = {
  basic: 'settings.view_setting',
  terminal: 'settings.change_terminal',
  security: 'settings.change_security',
  clean: 'settings.change_clean',
  other: 'settings.change_other',
  email: 'settings.change_email',
  email_content: 'settings.change_email',
  sms: 'settings.change_sms',
  alibaba: 'settings.change_sms',
  tencent: 'settings.change_sms',
  vault: 'settings.change_vault',
  ...Object.fromEntries(
    ['ldap', 'wecom', 'dingtalk', 'feishu', 'auth', 'oidc', 'keycloak', 'radius', 'cas', 'sso', 'saml2', 'oauth2'].map(
      (c) => [c, 'settings.change_auth'],
    ),
  ),
};

/** The permission a category needs, or `superuser`. */
export function settingCategoryPerm(category: string): string | 'superuser' {
  return CATEGORY_PERMS[category] ?? 'superuser';
}
