/** API object shapes both sides use. */

export interface OrgRef {
  id: string;
  name: string;
  is_default: boolean;
  is_root: boolean;
}

export interface CurrentOrg extends OrgRef {
  comment: string;
}

export interface LabeledValue<T = string> {
  value: T;
  label: string;
}

export interface RoleRef {
  id: string;
  name: string;
  display_name: string;
}

export interface Profile {
  id: string;
  name: string;
  username: string;
  email: string;
  is_superuser: boolean;
  is_org_admin: boolean;
  is_active: boolean;
  is_first_login: boolean;
  source: LabeledValue;
  mfa_level: LabeledValue<number>;
  date_password_last_updated: string | null;
  last_login: string | null;
  date_joined: string;
  date_expired: string;
  system_roles: RoleRef[];
  org_roles: RoleRef[];
  perms: string[];
  console_orgs: OrgRef[];
  audit_orgs: OrgRef[];
  workbench_orgs: OrgRef[];
}

export interface ThemeColors {
  '--color-primary': string;
  [key: string]: string;
}

export interface InterfaceSettings {
  logo_logout: string;
  logo_index: string;
  login_image: string;
  favicon: string;
  login_title: string;
  theme: string;
  theme_info: { colors?: Partial<ThemeColors> };
}

export interface PublicOpenSettings {
  XPACK_ENABLED: boolean;
  INTERFACE: InterfaceSettings;
  /** The login page offers passkey sign-in. */
  AUTH_PASSKEY: boolean;
  /** Sign-in through an identity provider's pages: one login-page button each, enabled ones only. */
  SSO_METHODS: SsoMethod[];
}

/** A login-page button that sends the browser to `url?next=…` (an identity provider's redirect). */
export interface SsoMethod {
  /** The backend: `openid`, `oauth2`… */
  name: string;
  /** The button's text (the provider's name where the settings give one). */
  label: string;
  url: string;
  /** An https URL or a path of this site; empty: none. */
  logo: string;
}

export interface PublicSettings extends PublicOpenSettings {
  XPACK_LICENSE_IS_VALID: boolean;
  XPACK_LICENSE_INFO: { corporation: string };
  PASSWORD_RULE: Record<string, number | boolean>;
  SECURITY_MFA_VERIFY_TTL: number;
  SECURITY_PASSWORD_EXPIRATION_TIME: number;
  SECURITY_COMMAND_EXECUTION: boolean;
  SECURITY_MAX_IDLE_TIME: number;
  SECURITY_VIEW_AUTH_NEED_MFA: boolean;
  SESSION_EXPIRE_AT_BROWSER_CLOSE: boolean;
  AUTH_TEMP_TOKEN: boolean;
  TICKETS_ENABLED: boolean;
  HELP_DOCUMENT_URL: string;
  HELP_SUPPORT_URL: string;
  [key: string]: unknown;
}

/** The login API's JSON answer to the console's login page. */
export interface LoginResult {
  ok: boolean;
  next?: string;
  error?: string;
  msg?: string;
}
