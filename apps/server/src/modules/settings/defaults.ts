import {
  DEFAULT_LOGIN_LIMIT_COUNT,
  DEFAULT_ORG_ID,
  DEFAULT_LOGIN_LIMIT_TIME_MINUTES,
  PRIMARY_COLOR,
} from '@gatehouse/contract';

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
  /** The MFA step after a sign-in through an identity provider's pages too. */
  SECURITY_MFA_AUTH_ENABLED_FOR_THIRD_PARTY: true,
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
  /** Where the SMS settings' test sends its code. */
  SMS_TEST_PHONE: '',
  ALIBABA_ACCESS_KEY_ID: '',
  ALIBABA_ACCESS_KEY_SECRET: '',
  ALIBABA_VERIFY_SIGN_NAME: '',
  ALIBABA_VERIFY_TEMPLATE_CODE: '',
  ALIBABA_SMS_ENDPOINT: 'https://dysmsapi.aliyuncs.com/',
  TENCENT_SECRET_ID: '',
  TENCENT_SECRET_KEY: '',
  TENCENT_SDKAPPID: '',
  TENCENT_VERIFY_SIGN_NAME: '',
  TENCENT_VERIFY_TEMPLATE_CODE: '',
  TENCENT_SMS_ENDPOINT: 'https://sms.tencentcloudapi.com/',
  HUAWEI_APP_KEY: '',
  HUAWEI_APP_SECRET: '',
  HUAWEI_SMS_ENDPOINT: 'https://smsapi.cn-north-4.myhuaweicloud.com:443',
  HUAWEI_SIGN_CHANNEL_NUM: '',
  HUAWEI_VERIFY_SIGN_NAME: '',
  HUAWEI_VERIFY_TEMPLATE_CODE: '',
  CMPP2_HOST: '',
  CMPP2_PORT: 7890,
  CMPP2_SP_ID: '',
  CMPP2_SP_SECRET: '',
  CMPP2_SRC_ID: '',
  CMPP2_SERVICE_ID: '',
  CMPP2_VERIFY_SIGN_NAME: '',
  CMPP2_VERIFY_TEMPLATE_CODE: 'Your verification code is {code}',
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
  CLOUD_SYNC_TASK_EXECUTION_KEEP_DAYS: 180,
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
  /** Sign-in by the LDAP directory (modules/authentication/ldap/); the AUTH_LDAP_* settings describe it. */
  AUTH_LDAP: false,
  AUTH_LDAP_SERVER_URI: 'ldap://localhost:389',
  AUTH_LDAP_BIND_DN: 'cn=admin,dc=jumpserver,dc=org',
  /** Secret: stored sealed, read with `SettingsStore.secret` (never in `get`). */
  AUTH_LDAP_BIND_PASSWORD: '',
  AUTH_LDAP_SEARCH_OU: 'ou=tech,dc=jumpserver,dc=org',
  AUTH_LDAP_SEARCH_FILTER: '(cn=%(user)s)',
  AUTH_LDAP_USER_ATTR_MAP: { username: 'cn', name: 'sn', email: 'mail' } as Record<string, string>,
  AUTH_LDAP_SYNC_ORG_IDS: [DEFAULT_ORG_ID] as string[],
  AUTH_LDAP_SYNC_IS_PERIODIC: false,
  AUTH_LDAP_SYNC_CRONTAB: '',
  AUTH_LDAP_SYNC_INTERVAL: 0,
  AUTH_LDAP_CONNECT_TIMEOUT: 10,
  AUTH_LDAP_SEARCH_PAGED_SIZE: 1000,
  /** Sign-in by a RADIUS server (modules/authentication/radius/). */
  AUTH_RADIUS: false,
  RADIUS_SERVER: 'localhost',
  RADIUS_PORT: 1812,
  RADIUS_SECRET: '',
  OTP_IN_RADIUS: false,
  RADIUS_TIMEOUT: 5,
  /** Sign-in by OpenID Connect (modules/authentication/oidc/). */
  AUTH_OPENID: false,
  BASE_SITE_URL: '',
  AUTH_OPENID_CLIENT_ID: '',
  AUTH_OPENID_CLIENT_SECRET: '',
  AUTH_OPENID_CLIENT_AUTH_METHOD: 'client_secret_basic',
  AUTH_OPENID_KEYCLOAK: false,
  AUTH_OPENID_SERVER_URL: '',
  AUTH_OPENID_REALM_NAME: '',
  AUTH_OPENID_PROVIDER_ENDPOINT: '',
  AUTH_OPENID_PROVIDER_AUTHORIZATION_ENDPOINT: '',
  AUTH_OPENID_PROVIDER_TOKEN_ENDPOINT: '',
  AUTH_OPENID_PROVIDER_JWKS_ENDPOINT: '',
  AUTH_OPENID_PROVIDER_USERINFO_ENDPOINT: '',
  AUTH_OPENID_PROVIDER_END_SESSION_ENDPOINT: '',
  AUTH_OPENID_PROVIDER_SIGNATURE_ALG: 'RS256',
  AUTH_OPENID_SCOPES: 'openid profile email',
  AUTH_OPENID_ID_TOKEN_MAX_AGE: 60,
  AUTH_OPENID_USE_NONCE: true,
  AUTH_OPENID_PKCE: true,
  AUTH_OPENID_CODE_CHALLENGE_METHOD: 'S256',
  AUTH_OPENID_SHARE_SESSION: true,
  AUTH_OPENID_USER_ATTR_MAP: { name: 'name', username: 'preferred_username', email: 'email' } as Record<string, string>,
  AUTH_OPENID_ALWAYS_UPDATE_USER: true,
  AUTH_OPENID_ORG_IDS: [DEFAULT_ORG_ID] as string[],
  /** Sign-in by a generic OAuth2 provider (modules/authentication/oauth2/). */
  AUTH_OAUTH2: false,
  AUTH_OAUTH2_PROVIDER: 'OAuth2',
  AUTH_OAUTH2_LOGO_PATH: '',
  AUTH_OAUTH2_CLIENT_ID: '',
  AUTH_OAUTH2_CLIENT_SECRET: '',
  AUTH_OAUTH2_SCOPE: '',
  AUTH_OAUTH2_PROVIDER_AUTHORIZATION_ENDPOINT: '',
  AUTH_OAUTH2_ACCESS_TOKEN_ENDPOINT: '',
  /** POST: the client secret in the body; GET (JumpServer's default) puts it in the token endpoint's URL, where proxies log it. */
  AUTH_OAUTH2_ACCESS_TOKEN_METHOD: 'POST',
  AUTH_OAUTH2_PROVIDER_USERINFO_ENDPOINT: '',
  AUTH_OAUTH2_PROVIDER_END_SESSION_ENDPOINT: '',
  AUTH_OAUTH2_LOGOUT_COMPLETELY: true,
  AUTH_OAUTH2_USER_ATTR_MAP: { name: 'name', username: 'username', email: 'email' } as Record<string, string>,
  AUTH_OAUTH2_ALWAYS_UPDATE_USER: true,
  AUTH_OAUTH2_ORG_IDS: [DEFAULT_ORG_ID] as string[],
  /** Sign-in by a SAML2 identity provider (modules/authentication/saml2/). */
  AUTH_SAML2: false,
  SAML2_IDP_METADATA_URL: '',
  SAML2_IDP_METADATA_XML: '',
  SAML2_SP_KEY_CONTENT: '',
  SAML2_SP_CERT_CONTENT: '',
  SAML2_RENAME_ATTRIBUTES: { uid: 'username', email: 'email', cn: 'name' } as Record<string, string>,
  AUTH_SAML2_ALWAYS_UPDATE_USER: true,
  /** Sign-in by a CAS server (modules/authentication/cas/). */
  AUTH_CAS: false,
  CAS_SERVER_URL: '',
  CAS_ROOT_PROXIED_AS: '',
  CAS_VERSION: 3,
  CAS_LOGOUT_COMPLETELY: true,
  CAS_RENAME_ATTRIBUTES: { cas_user: 'username', email: 'email', name: 'name' } as Record<string, string>,
  CAS_APPLY_ATTRIBUTES_TO_USER: false,
  CAS_CREATE_USER: true,
  CAS_ORG_IDS: [DEFAULT_ORG_ID] as string[],
  /** The domain of the email given to a user whose provider tells none (RADIUS). */
  EMAIL_SUFFIX: 'example.com',
  /** Third-party sign-ins (LDAP) only for users that exist here already. */
  ONLY_ALLOW_EXIST_USER_AUTH: false,
  /** Sign-in by the company messengers' QR pages (modules/authentication/im/). */
  AUTH_WECOM: false,
  WECOM_CORPID: '',
  WECOM_AGENTID: '',
  WECOM_SECRET: '',
  /** The WeCom server API and its QR sign-in page (a private deployment's, or the public ones). */
  WECOM_ENDPOINT: 'https://qyapi.weixin.qq.com',
  WECOM_LOGIN_ENDPOINT: 'https://login.work.weixin.qq.com',
  /** WeCom's OAuth2 page for a sign-in inside WeCom's own client (im/wecom.ts, `connect/oauth2/authorize`). */
  WECOM_OAUTH_ENDPOINT: 'https://open.weixin.qq.com',
  AUTH_DINGTALK: false,
  DINGTALK_AGENTID: '',
  DINGTALK_APPKEY: '',
  DINGTALK_APPSECRET: '',
  DINGTALK_ENDPOINT: 'https://oapi.dingtalk.com',
  AUTH_FEISHU: false,
  FEISHU_APP_ID: '',
  FEISHU_APP_SECRET: '',
  /** `feishu` (open.feishu.cn) or `lark` (open.larksuite.com), unless FEISHU_ENDPOINT names another. */
  FEISHU_VERSION: 'feishu',
  FEISHU_ENDPOINT: '',
  /** Signing out here also sends a signed LogoutRequest to the IdP (SAML single logout). */
  SAML2_LOGOUT_COMPLETELY: true,
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
  /** Messages › Email (modules/notifications/mail/): no host = no mail is sent. */
  EMAIL_HOST: '',
  EMAIL_PORT: 25,
  EMAIL_HOST_USER: '',
  /** Secret (sealed). */
  EMAIL_HOST_PASSWORD: '',
  EMAIL_USE_SSL: false,
  EMAIL_USE_TLS: false,
  /** Empty: EMAIL_HOST_USER. */
  EMAIL_FROM: '',
  EMAIL_SUBJECT_PREFIX: '[Gatehouse] ',
  EMAIL_RECIPIENT: '',
  /** The new user's mail; empty fields use the built-in text in the user's language. */
  EMAIL_CUSTOM_USER_CREATED_SUBJECT: '',
  EMAIL_CUSTOM_USER_CREATED_HONORIFIC: '',
  EMAIL_CUSTOM_USER_CREATED_BODY: '',
  EMAIL_CUSTOM_USER_CREATED_SIGNATURE: '',
  /** Features › Vault (modules/accounts/vault/): account secrets copied to a KV v2 engine. */
  VAULT_ENABLED: false,
  VAULT_HCP_HOST: '',
  /** Secret (sealed). */
  VAULT_HCP_TOKEN: '',
  VAULT_HCP_MOUNT_POINT: 'jumpserver',
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
