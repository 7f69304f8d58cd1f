import { SETTING_CATEGORIES, type SettingCategory } from '@gatehouse/contract';

/**
 * The settings form pages: per page the category it reads and saves
 * (`/api/v1/settings/setting/?category=`) and its sections, each a title and fields of that
 * category. Field types and ranges come from the contract's declaration; labels and help from
 * `settings.field.<NAME>.label|help` in the console's catalogues.
 */
export interface SettingsSection {
  /** Catalogue key under `settings.section`. */
  title: string;
  fields: readonly string[];
}

export interface SettingsPageDef {
  category: SettingCategory;
  sections: readonly SettingsSection[];
}

const keys = (c: SettingCategory): string[] => Object.keys(SETTING_CATEGORIES[c]);

/** Basic: the site's address and the help links (the org display name is set on the orgs page). */
export const BASIC_PAGE: SettingsPageDef = {
  category: 'basic',
  sections: [
    { title: 'site', fields: ['SITE_URL'] },
    { title: 'help', fields: ['HELP_DOCUMENT_URL', 'HELP_SUPPORT_URL'] },
  ],
};

export const SECURITY_PAGE: SettingsPageDef = {
  category: 'security',
  sections: [
    { title: 'password', fields: keys('security_password') },
    { title: 'auth', fields: keys('security_auth') },
    { title: 'session', fields: keys('security_session') },
    { title: 'loginLimit', fields: keys('security_login_limit') },
  ],
};

export const TERMINAL_PAGE: SettingsPageDef = {
  category: 'terminal',
  sections: [{ title: 'terminalBasic', fields: keys('terminal') }],
};

export const CLEAN_PAGE: SettingsPageDef = {
  category: 'clean',
  sections: [{ title: 'retention', fields: keys('clean') }],
};

/** Authentication › Basic: which sign-in methods are on. */
export const AUTH_PAGE: SettingsPageDef = {
  category: 'auth',
  sections: [{ title: 'authBackends', fields: keys('auth') }],
};

/** Authentication › LDAP: the directory, how users are found in it, the synchronization. */
export const LDAP_PAGE: SettingsPageDef = {
  category: 'ldap',
  sections: [
    { title: 'ldapServer', fields: ['AUTH_LDAP_SERVER_URI', 'AUTH_LDAP_BIND_DN', 'AUTH_LDAP_BIND_PASSWORD'] },
    {
      title: 'ldapSearch',
      fields: [
        'AUTH_LDAP_SEARCH_OU',
        'AUTH_LDAP_SEARCH_FILTER',
        'AUTH_LDAP_USER_ATTR_MAP',
        'AUTH_LDAP_CONNECT_TIMEOUT',
        'AUTH_LDAP_SEARCH_PAGED_SIZE',
      ],
    },
    {
      title: 'ldapSync',
      fields: [
        'AUTH_LDAP_SYNC_ORG_IDS',
        'AUTH_LDAP_SYNC_IS_PERIODIC',
        'AUTH_LDAP_SYNC_CRONTAB',
        'AUTH_LDAP_SYNC_INTERVAL',
      ],
    },
    { title: 'ldapEnable', fields: ['AUTH_LDAP'] },
  ],
};

/** Authentication › Radius: the server that checks passwords (and MFA codes with OTP_IN_RADIUS). */
export const RADIUS_PAGE: SettingsPageDef = {
  category: 'radius',
  sections: [
    { title: 'radiusServer', fields: ['RADIUS_SERVER', 'RADIUS_PORT', 'RADIUS_SECRET', 'RADIUS_TIMEOUT'] },
    { title: 'radiusEnable', fields: ['AUTH_RADIUS', 'OTP_IN_RADIUS'] },
  ],
};

/** Authentication › OIDC: OpenID Connect by Keycloak, discovery or explicit endpoints. */
export const OIDC_PAGE: SettingsPageDef = {
  category: 'oidc',
  sections: [
    {
      title: 'oidcClient',
      fields: ['BASE_SITE_URL', 'AUTH_OPENID_CLIENT_ID', 'AUTH_OPENID_CLIENT_SECRET', 'AUTH_OPENID_CLIENT_AUTH_METHOD'],
    },
    {
      title: 'oidcProvider',
      fields: [
        'AUTH_OPENID_KEYCLOAK',
        'AUTH_OPENID_SERVER_URL',
        'AUTH_OPENID_REALM_NAME',
        'AUTH_OPENID_PROVIDER_ENDPOINT',
        'AUTH_OPENID_PROVIDER_AUTHORIZATION_ENDPOINT',
        'AUTH_OPENID_PROVIDER_TOKEN_ENDPOINT',
        'AUTH_OPENID_PROVIDER_JWKS_ENDPOINT',
        'AUTH_OPENID_PROVIDER_USERINFO_ENDPOINT',
        'AUTH_OPENID_PROVIDER_END_SESSION_ENDPOINT',
        'AUTH_OPENID_PROVIDER_SIGNATURE_ALG',
        'AUTH_OPENID_SCOPES',
      ],
    },
    {
      title: 'oidcChecks',
      fields: [
        'AUTH_OPENID_ID_TOKEN_MAX_AGE',
        'AUTH_OPENID_USE_NONCE',
        'AUTH_OPENID_PKCE',
        'AUTH_OPENID_CODE_CHALLENGE_METHOD',
        'AUTH_OPENID_SHARE_SESSION',
      ],
    },
    {
      title: 'oidcUsers',
      fields: ['AUTH_OPENID_USER_ATTR_MAP', 'AUTH_OPENID_ALWAYS_UPDATE_USER', 'AUTH_OPENID_ORG_IDS'],
    },
    { title: 'oidcEnable', fields: ['AUTH_OPENID'] },
  ],
};

/** Authentication › OAuth2: a generic provider's endpoints, its button, its users. */
export const OAUTH2_PAGE: SettingsPageDef = {
  category: 'oauth2',
  sections: [
    {
      title: 'oauth2Client',
      fields: [
        'AUTH_OAUTH2_PROVIDER',
        'AUTH_OAUTH2_LOGO_PATH',
        'AUTH_OAUTH2_CLIENT_ID',
        'AUTH_OAUTH2_CLIENT_SECRET',
        'AUTH_OAUTH2_SCOPE',
      ],
    },
    {
      title: 'oauth2Provider',
      fields: [
        'AUTH_OAUTH2_PROVIDER_AUTHORIZATION_ENDPOINT',
        'AUTH_OAUTH2_ACCESS_TOKEN_ENDPOINT',
        'AUTH_OAUTH2_ACCESS_TOKEN_METHOD',
        'AUTH_OAUTH2_PROVIDER_USERINFO_ENDPOINT',
        'AUTH_OAUTH2_PROVIDER_END_SESSION_ENDPOINT',
        'AUTH_OAUTH2_LOGOUT_COMPLETELY',
      ],
    },
    {
      title: 'oauth2Users',
      fields: ['AUTH_OAUTH2_USER_ATTR_MAP', 'AUTH_OAUTH2_ALWAYS_UPDATE_USER', 'AUTH_OAUTH2_ORG_IDS'],
    },
    { title: 'oauth2Enable', fields: ['AUTH_OAUTH2'] },
  ],
};

/** Authentication › SAML2: the IdP by metadata, the SP's key and certificate, the attributes. */
export const SAML2_PAGE: SettingsPageDef = {
  category: 'saml2',
  sections: [
    { title: 'saml2Idp', fields: ['SAML2_IDP_METADATA_URL', 'SAML2_IDP_METADATA_XML'] },
    {
      title: 'saml2Sp',
      fields: [
        'SAML2_SP_KEY_CONTENT',
        'SAML2_SP_CERT_CONTENT',
        'SAML2_RENAME_ATTRIBUTES',
        'AUTH_SAML2_ALWAYS_UPDATE_USER',
      ],
    },
    { title: 'saml2Logout', fields: ['SAML2_LOGOUT_COMPLETELY'] },
    { title: 'saml2Enable', fields: ['AUTH_SAML2'] },
  ],
};

/** Messages › Email: the SMTP server every mail goes through, the sender, the test recipient. */
export const EMAIL_PAGE: SettingsPageDef = {
  category: 'email',
  sections: [
    {
      title: 'smtp',
      fields: ['EMAIL_HOST', 'EMAIL_PORT', 'EMAIL_HOST_USER', 'EMAIL_HOST_PASSWORD', 'EMAIL_USE_SSL', 'EMAIL_USE_TLS'],
    },
    { title: 'sender', fields: ['EMAIL_FROM', 'EMAIL_SUBJECT_PREFIX', 'EMAIL_SUFFIX', 'EMAIL_RECIPIENT'] },
  ],
};

/** Messages › Email › the mail a new user receives. */
export const EMAIL_CONTENT_PAGE: SettingsPageDef = {
  category: 'email_content',
  sections: [{ title: 'userCreated', fields: keys('email_content') }],
};

/** Messages › SMS: the switch, the backend, the test phone; then each backend's own page. */
export const SMS_PAGE: SettingsPageDef = { category: 'sms', sections: [{ title: 'sms', fields: keys('sms') }] };
export const SMS_BACKEND_PAGES: readonly SettingsPageDef[] = (
  ['alibaba', 'tencent', 'huawei', 'cmpp2', 'custom'] as const
).map((c) => ({ category: c, sections: [{ title: c, fields: keys(c) }] }));

/** Features › Announcement, Ticket, Ops: one page each. */
export const ANNOUNCEMENT_PAGE: SettingsPageDef = {
  category: 'announcement',
  sections: [{ title: 'announcement', fields: keys('announcement') }],
};
export const TICKET_PAGE: SettingsPageDef = {
  category: 'ticket',
  sections: [{ title: 'ticket', fields: keys('ticket') }],
};
export const OPS_PAGE: SettingsPageDef = {
  category: 'ops',
  sections: [{ title: 'ops', fields: keys('ops') }],
};

/** Features › Vault: HashiCorp Vault's KV v2 engine for account secrets. */
export const VAULT_PAGE: SettingsPageDef = {
  category: 'vault',
  sections: [{ title: 'vault', fields: keys('vault') }],
};

/** JSON with object keys sorted: an object's fields may come back from the form in another order. */
function stable(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stable(o[k])}`)
    .join(',')}}`;
}

/** Authentication › CAS: the server, its protocol version, the users it brings. */
export const CAS_PAGE: SettingsPageDef = {
  category: 'cas',
  sections: [
    { title: 'casServer', fields: ['CAS_SERVER_URL', 'CAS_ROOT_PROXIED_AS', 'CAS_VERSION', 'CAS_LOGOUT_COMPLETELY'] },
    {
      title: 'casUsers',
      fields: ['CAS_RENAME_ATTRIBUTES', 'CAS_APPLY_ATTRIBUTES_TO_USER', 'CAS_CREATE_USER', 'CAS_ORG_IDS'],
    },
    { title: 'casEnable', fields: ['AUTH_CAS'] },
  ],
};

/** Authentication › Passkey: the switch, the relying-party id and the name authenticators show (superusers only). */
export const PASSKEY_PAGE: SettingsPageDef = {
  category: 'passkey',
  sections: [
    { title: 'passkeyServer', fields: ['FIDO_SERVER_ID', 'FIDO_SERVER_NAME'] },
    { title: 'passkeyEnable', fields: ['AUTH_PASSKEY'] },
  ],
};

/** Authentication › WeCom, DingTalk, FeiShu: the app that signs users in by the messenger's QR page. */
export const WECOM_PAGE: SettingsPageDef = {
  category: 'wecom',
  sections: [
    {
      title: 'wecomApp',
      fields: [
        'WECOM_CORPID',
        'WECOM_AGENTID',
        'WECOM_SECRET',
        'WECOM_ENDPOINT',
        'WECOM_LOGIN_ENDPOINT',
        'WECOM_OAUTH_ENDPOINT',
      ],
    },
    { title: 'wecomEnable', fields: ['AUTH_WECOM'] },
  ],
};
export const DINGTALK_PAGE: SettingsPageDef = {
  category: 'dingtalk',
  sections: [
    {
      title: 'dingtalkApp',
      fields: ['DINGTALK_AGENTID', 'DINGTALK_APPKEY', 'DINGTALK_APPSECRET', 'DINGTALK_ENDPOINT'],
    },
    { title: 'dingtalkEnable', fields: ['AUTH_DINGTALK'] },
  ],
};
export const FEISHU_PAGE: SettingsPageDef = {
  category: 'feishu',
  sections: [
    { title: 'feishuApp', fields: ['FEISHU_APP_ID', 'FEISHU_APP_SECRET', 'FEISHU_VERSION', 'FEISHU_ENDPOINT'] },
    { title: 'feishuEnable', fields: ['AUTH_FEISHU'] },
  ],
};

/** The fields whose value differs from what was loaded: what a PATCH sends. */
export function changedValues(
  loaded: Readonly<Record<string, unknown>>,
  values: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values))
    if (value !== undefined && stable(value) !== stable(loaded[name])) out[name] = value;
  return out;
}
