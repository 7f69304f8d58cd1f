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
  /** `multiline`: a document (PEM, XML) edited in a text area, its line breaks kept. */
  /** `host`: a DNS host name (no scheme, port or address), stored in lower case. */
  | { type: 'string'; maxLength: number; url?: boolean; host?: boolean; allowBlank?: boolean; multiline?: boolean }
  | { type: 'string'; maxLength: number; secret: true; multiline?: boolean }
  /** An object of string values (an attribute map); `required` keys must be present. */
  | { type: 'json'; required?: readonly string[] }
  /** A list of organisation ids. */
  | { type: 'orgs' }
  /** A list of short strings (a command blacklist), duplicates and blanks dropped. */
  | { type: 'list'; maxItems: number; maxLength: number }
  /**
   * An object of sub-fields (the announcement); `newId` names a key that gets a new random id each
   * time the object is saved (readers tell a new announcement from one they dismissed).
   */
  | { type: 'object'; fields: Readonly<Record<string, SettingField>>; newId?: string };

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
  /** After a sign-in through an identity provider's pages (OIDC, OAuth2), the MFA step too. */
  SECURITY_MFA_AUTH_ENABLED_FOR_THIRD_PARTY: bool,
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
  /** Sign-ins through a directory (LDAP) only for users that exist here already. */
  ONLY_ALLOW_EXIST_USER_AUTH: bool,
};

/** Auth › LDAP (apps/server/src/modules/authentication/ldap/): the directory, its search, the sync. */
const ldap: SettingFields = {
  AUTH_LDAP: bool,
  AUTH_LDAP_SERVER_URI: { type: 'string', maxLength: 1024 },
  AUTH_LDAP_BIND_DN: { type: 'string', maxLength: 1024, allowBlank: true },
  AUTH_LDAP_BIND_PASSWORD: { type: 'string', maxLength: 1024, secret: true },
  /** Several bases separated by `|`. */
  AUTH_LDAP_SEARCH_OU: { type: 'string', maxLength: 1024, allowBlank: true },
  /** `%(user)s` stands for the (escaped) username. */
  AUTH_LDAP_SEARCH_FILTER: { type: 'string', maxLength: 1024 },
  AUTH_LDAP_USER_ATTR_MAP: { type: 'json', required: ['username'] },
  AUTH_LDAP_SYNC_ORG_IDS: { type: 'orgs' },
  AUTH_LDAP_SYNC_IS_PERIODIC: bool,
  AUTH_LDAP_SYNC_CRONTAB: { type: 'string', maxLength: 128, allowBlank: true },
  /** Hours; 0 = by the crontab. */
  AUTH_LDAP_SYNC_INTERVAL: int(0, 99999),
  /** Seconds. */
  AUTH_LDAP_CONNECT_TIMEOUT: int(1, 300),
  AUTH_LDAP_SEARCH_PAGED_SIZE: int(1, 5000),
};

/** Auth › Radius (apps/server/src/modules/authentication/radius/): a password backend like LDAP. */
const radius: SettingFields = {
  AUTH_RADIUS: bool,
  RADIUS_SERVER: { type: 'string', maxLength: 1024 },
  RADIUS_PORT: int(1, 65535),
  RADIUS_SECRET: { type: 'string', maxLength: 1024, secret: true },
  /** The MFA code is checked by the RADIUS server (MFA backend `otp_radius`). */
  OTP_IN_RADIUS: bool,
  /** Seconds for one check, retransmissions included (beyond the contract: a server that does not answer). */
  RADIUS_TIMEOUT: int(1, 60),
};

const url = { type: 'string', maxLength: 1024, url: true, allowBlank: true } as const;

/**
 * Auth › OIDC (apps/server/src/modules/authentication/oidc/): OpenID Connect by Keycloak's server
 * URL and realm, by the provider's discovery document, or by explicit endpoints.
 */
const oidc: SettingFields = {
  AUTH_OPENID: bool,
  /** The origin the provider sends the browser back to (blank: SITE_URL). */
  BASE_SITE_URL: url,
  AUTH_OPENID_CLIENT_ID: { type: 'string', maxLength: 1024, allowBlank: true },
  AUTH_OPENID_CLIENT_SECRET: { type: 'string', maxLength: 1024, secret: true },
  AUTH_OPENID_CLIENT_AUTH_METHOD: { type: 'choice', choices: ['client_secret_basic', 'client_secret_post'] },
  AUTH_OPENID_KEYCLOAK: bool,
  AUTH_OPENID_SERVER_URL: url,
  AUTH_OPENID_REALM_NAME: { type: 'string', maxLength: 1024, allowBlank: true },
  /** The issuer; its discovery document is read when the explicit endpoints are blank. */
  AUTH_OPENID_PROVIDER_ENDPOINT: url,
  AUTH_OPENID_PROVIDER_AUTHORIZATION_ENDPOINT: url,
  AUTH_OPENID_PROVIDER_TOKEN_ENDPOINT: url,
  AUTH_OPENID_PROVIDER_JWKS_ENDPOINT: url,
  AUTH_OPENID_PROVIDER_USERINFO_ENDPOINT: url,
  AUTH_OPENID_PROVIDER_END_SESSION_ENDPOINT: url,
  AUTH_OPENID_PROVIDER_SIGNATURE_ALG: { type: 'choice', choices: ['RS256', 'PS256', 'ES256', 'EdDSA', 'HS256'] },
  AUTH_OPENID_SCOPES: { type: 'string', maxLength: 1024 },
  /** Seconds: an ID token issued longer ago is refused. */
  AUTH_OPENID_ID_TOKEN_MAX_AGE: int(1, 99999),
  AUTH_OPENID_USE_NONCE: bool,
  AUTH_OPENID_PKCE: bool,
  AUTH_OPENID_CODE_CHALLENGE_METHOD: { type: 'choice', choices: ['S256', 'plain'] },
  /** Signing out here signs out at the provider too (its end-session endpoint). */
  AUTH_OPENID_SHARE_SESSION: bool,
  AUTH_OPENID_USER_ATTR_MAP: { type: 'json', required: ['username'] },
  AUTH_OPENID_ALWAYS_UPDATE_USER: bool,
  AUTH_OPENID_ORG_IDS: { type: 'orgs' },
};

/** Auth › OAuth2 (apps/server/src/modules/authentication/oauth2/): a generic OAuth2 provider. */
const oauth2: SettingFields = {
  AUTH_OAUTH2: bool,
  /** The login page's button text. */
  AUTH_OAUTH2_PROVIDER: { type: 'string', maxLength: 128 },
  /** The button's logo: an https URL or a path of this site (blank: none). */
  AUTH_OAUTH2_LOGO_PATH: { type: 'string', maxLength: 1024, allowBlank: true },
  AUTH_OAUTH2_CLIENT_ID: { type: 'string', maxLength: 1024, allowBlank: true },
  AUTH_OAUTH2_CLIENT_SECRET: { type: 'string', maxLength: 1024, secret: true },
  AUTH_OAUTH2_SCOPE: { type: 'string', maxLength: 1024, allowBlank: true },
  AUTH_OAUTH2_PROVIDER_AUTHORIZATION_ENDPOINT: url,
  AUTH_OAUTH2_ACCESS_TOKEN_ENDPOINT: url,
  AUTH_OAUTH2_ACCESS_TOKEN_METHOD: { type: 'choice', choices: ['GET', 'POST'] },
  AUTH_OAUTH2_PROVIDER_USERINFO_ENDPOINT: url,
  AUTH_OAUTH2_PROVIDER_END_SESSION_ENDPOINT: url,
  /** Signing out here also goes to the provider's end-session endpoint. */
  AUTH_OAUTH2_LOGOUT_COMPLETELY: bool,
  AUTH_OAUTH2_USER_ATTR_MAP: { type: 'json', required: ['username'] },
  AUTH_OAUTH2_ALWAYS_UPDATE_USER: bool,
  AUTH_OAUTH2_ORG_IDS: { type: 'orgs' },
};

/** Auth › SAML2 (apps/server/src/modules/authentication/saml2/): the IdP by metadata, the SP's key. */
const saml2: SettingFields = {
  AUTH_SAML2: bool,
  /** Read at each sign-in; wins over the XML when both are set. */
  SAML2_IDP_METADATA_URL: url,
  SAML2_IDP_METADATA_XML: { type: 'string', maxLength: 200000, allowBlank: true, multiline: true },
  /** PEM; signs the authentication requests when set. */
  SAML2_SP_KEY_CONTENT: { type: 'string', maxLength: 20000, secret: true, multiline: true },
  SAML2_SP_CERT_CONTENT: { type: 'string', maxLength: 20000, allowBlank: true, multiline: true },
  /** IdP attribute name → Gatehouse field (username, name, email); the NameID is the username otherwise. */
  SAML2_RENAME_ATTRIBUTES: { type: 'json' },
  AUTH_SAML2_ALWAYS_UPDATE_USER: bool,
  /** Signing out here also signs out at the IdP (a signed LogoutRequest; needs the SP key). */
  SAML2_LOGOUT_COMPLETELY: bool,
};

/**
 * Auth › WeCom, DingTalk, FeiShu (apps/server/src/modules/authentication/im/): sign-in by the
 * messenger's QR page; the base URLs are configurable (a private deployment, a test's stand-in).
 */
const imUrl = { type: 'string', maxLength: 1024, url: true } as const;
const wecom: SettingFields = {
  AUTH_WECOM: bool,
  WECOM_CORPID: { type: 'string', maxLength: 256, allowBlank: true },
  WECOM_AGENTID: { type: 'string', maxLength: 256, allowBlank: true },
  WECOM_SECRET: { type: 'string', maxLength: 1024, secret: true },
  WECOM_ENDPOINT: imUrl,
  WECOM_LOGIN_ENDPOINT: imUrl,
  /** The OAuth2 page of a sign-in inside WeCom's client (no QR code). */
  WECOM_OAUTH_ENDPOINT: imUrl,
};
const dingtalk: SettingFields = {
  AUTH_DINGTALK: bool,
  DINGTALK_AGENTID: { type: 'string', maxLength: 256, allowBlank: true },
  DINGTALK_APPKEY: { type: 'string', maxLength: 256, allowBlank: true },
  DINGTALK_APPSECRET: { type: 'string', maxLength: 1024, secret: true },
  DINGTALK_ENDPOINT: imUrl,
};
const feishu: SettingFields = {
  AUTH_FEISHU: bool,
  FEISHU_APP_ID: { type: 'string', maxLength: 256, allowBlank: true },
  FEISHU_APP_SECRET: { type: 'string', maxLength: 1024, secret: true },
  FEISHU_VERSION: { type: 'choice', choices: ['feishu', 'lark'] },
  /** Blank: the public API of FEISHU_VERSION. */
  FEISHU_ENDPOINT: { type: 'string', maxLength: 1024, url: true, allowBlank: true },
};
/**
 * Auth › Passkey (apps/server/src/modules/authentication/profile/passkeys.ts): the switch, the
 * relying-party id (blank: the request's host name) and the name authenticators show.
 */
const passkey: SettingFields = {
  AUTH_PASSKEY: bool,
  FIDO_SERVER_ID: { type: 'string', maxLength: 253, host: true, allowBlank: true },
  FIDO_SERVER_NAME: { type: 'string', maxLength: 255 },
};
/** Messages › Email (apps/server/src/modules/notifications/mail/): the SMTP server every mail goes through. */
const email: SettingFields = {
  EMAIL_HOST: { type: 'string', maxLength: 1024, allowBlank: true },
  EMAIL_PORT: int(1, 65535),
  EMAIL_HOST_USER: { type: 'string', maxLength: 128, allowBlank: true },
  EMAIL_HOST_PASSWORD: { type: 'string', maxLength: 1024, secret: true },
  /** Implicit TLS from the first byte (port 465). */
  EMAIL_USE_SSL: bool,
  /** STARTTLS required after connecting (port 587). */
  EMAIL_USE_TLS: bool,
  EMAIL_FROM: { type: 'string', maxLength: 128, allowBlank: true },
  EMAIL_SUBJECT_PREFIX: { type: 'string', maxLength: 128, allowBlank: true },
  /** Where the test mail goes (the form's test button). */
  EMAIL_RECIPIENT: { type: 'string', maxLength: 128, allowBlank: true },
  /** Appended to every mail's body. */
  EMAIL_SUFFIX: { type: 'string', maxLength: 1024, allowBlank: true },
};

/** Messages › Email › the mail a new user receives. */
const emailContent: SettingFields = {
  EMAIL_CUSTOM_USER_CREATED_SUBJECT: { type: 'string', maxLength: 1024, allowBlank: true },
  EMAIL_CUSTOM_USER_CREATED_HONORIFIC: { type: 'string', maxLength: 1024, allowBlank: true },
  EMAIL_CUSTOM_USER_CREATED_BODY: { type: 'string', maxLength: 4096, allowBlank: true },
  EMAIL_CUSTOM_USER_CREATED_SIGNATURE: { type: 'string', maxLength: 1024, allowBlank: true },
};

/** Features › Announcement: the banner every signed-in user sees until they dismiss it. */
const announcement: SettingFields = {
  ANNOUNCEMENT_ENABLED: bool,
  ANNOUNCEMENT: {
    type: 'object',
    newId: 'ID',
    fields: {
      SUBJECT: { type: 'string', maxLength: 1024 },
      CONTENT: { type: 'string', maxLength: 4096, allowBlank: true, multiline: true },
      LINK: { type: 'string', maxLength: 1024, url: true, allowBlank: true },
    },
  },
};

const text = (maxLength = 256) => ({ type: 'string', maxLength, allowBlank: true }) as const;
const sealed = { type: 'string', maxLength: 1024, secret: true } as const;
/** A provider's base URL (configurable so a private endpoint, or a test's stand-in, answers). */
const endpoint = { type: 'string', maxLength: 1024, url: true } as const;

/** Messages › SMS (apps/server/src/modules/notifications/sms/): the backend that sends codes, each backend's fields. */
const smsCategories = {
  sms: {
    SMS_ENABLED: bool,
    SMS_BACKEND: { type: 'choice', choices: ['alibaba', 'tencent', 'huawei', 'cmpp2', 'custom'] },
    SMS_TEST_PHONE: text(32),
  },
  alibaba: {
    ALIBABA_ACCESS_KEY_ID: text(),
    ALIBABA_ACCESS_KEY_SECRET: sealed,
    ALIBABA_VERIFY_SIGN_NAME: text(),
    ALIBABA_VERIFY_TEMPLATE_CODE: text(),
    ALIBABA_SMS_ENDPOINT: endpoint,
  },
  tencent: {
    TENCENT_SECRET_ID: text(),
    TENCENT_SECRET_KEY: sealed,
    TENCENT_SDKAPPID: text(),
    TENCENT_VERIFY_SIGN_NAME: text(),
    TENCENT_VERIFY_TEMPLATE_CODE: text(),
    TENCENT_SMS_ENDPOINT: endpoint,
  },
  huawei: {
    HUAWEI_APP_KEY: text(),
    HUAWEI_APP_SECRET: sealed,
    HUAWEI_SMS_ENDPOINT: endpoint,
    HUAWEI_SIGN_CHANNEL_NUM: text(),
    HUAWEI_VERIFY_SIGN_NAME: text(),
    HUAWEI_VERIFY_TEMPLATE_CODE: text(),
  },
  cmpp2: {
    CMPP2_HOST: text(),
    CMPP2_PORT: int(1, 65535),
    CMPP2_SP_ID: text(6),
    CMPP2_SP_SECRET: sealed,
    CMPP2_SRC_ID: text(21),
    CMPP2_SERVICE_ID: text(10),
    CMPP2_VERIFY_SIGN_NAME: text(),
    /** The message, `{code}` standing for the code. */
    CMPP2_VERIFY_TEMPLATE_CODE: text(),
  },
  custom: {
    CUSTOM_SMS_URL: { type: 'string', maxLength: 1024, url: true, allowBlank: true },
    CUSTOM_SMS_REQUEST_METHOD: { type: 'choice', choices: ['get', 'post'] },
    /** Values may hold `{code}` and `{phone}`. */
    CUSTOM_SMS_API_PARAMS: { type: 'json' },
  },
} as const satisfies Record<string, SettingFields>;

/** Auth › CAS (apps/server/src/modules/authentication/cas/): a CAS server, protocol 2 or 3. */
const cas: SettingFields = {
  AUTH_CAS: bool,
  CAS_SERVER_URL: url,
  /** The site's address as the CAS server sees it behind a proxy (blank: BASE_SITE_URL or SITE_URL). */
  CAS_ROOT_PROXIED_AS: url,
  CAS_VERSION: { type: 'choice', choices: [2, 3] },
  /** Signing out here also signs out at the CAS server. */
  CAS_LOGOUT_COMPLETELY: bool,
  /** CAS attribute → Gatehouse field (name, email); the CAS user is the username. */
  CAS_RENAME_ATTRIBUTES: { type: 'json' },
  CAS_APPLY_ATTRIBUTES_TO_USER: bool,
  /** Create a user at the first sign-in (else only existing users). */
  CAS_CREATE_USER: bool,
  CAS_ORG_IDS: { type: 'orgs' },
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
    CLOUD_SYNC_TASK_EXECUTION_KEEP_DAYS: days,
    TERMINAL_SESSION_KEEP_DURATION: days,
    ACTIVITY_LOG_KEEP_DAYS: days,
  },
  ticket: {
    TICKETS_ENABLED: bool,
    TICKET_AUTHORIZE_DEFAULT_TIME: int(1, 999),
    TICKET_AUTHORIZE_DEFAULT_TIME_UNIT: { type: 'choice', choices: ['day', 'hour'] },
  },
  other: { PERM_SINGLE_ASSET_TO_UNGROUP_NODE: bool },
  /** Auth › Basic: the sign-in backends that exist here. */
  auth: {
    AUTH_LDAP: bool,
    AUTH_RADIUS: bool,
    AUTH_OPENID: bool,
    AUTH_OAUTH2: bool,
    AUTH_SAML2: bool,
    AUTH_CAS: bool,
    AUTH_PASSKEY: bool,
    AUTH_WECOM: bool,
    AUTH_DINGTALK: bool,
    AUTH_FEISHU: bool,
  },
  ldap,
  radius,
  oidc,
  keycloak: oidc,
  oauth2,
  saml2,
  cas,
  wecom,
  dingtalk,
  feishu,
  passkey,
  /** Features › Ops: the job centre's switch and the commands it never runs (superusers only). */
  ops: {
    SECURITY_COMMAND_EXECUTION: bool,
    SECURITY_COMMAND_BLACKLIST: { type: 'list', maxItems: 200, maxLength: 128 },
  },
  announcement,
  email,
  email_content: emailContent,
  ...smsCategories,
  /** Features › Vault (apps/server/src/modules/accounts/vault/): HashiCorp Vault's KV v2 engine for account secrets. */
  vault: {
    VAULT_ENABLED: bool,
    VAULT_HCP_HOST: { type: 'string', maxLength: 1024, url: true, allowBlank: true },
    VAULT_HCP_TOKEN: { type: 'string', maxLength: 1024, secret: true },
    VAULT_HCP_MOUNT_POINT: { type: 'string', maxLength: 256 },
  },
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
