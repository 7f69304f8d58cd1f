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

/** The fields whose value differs from what was loaded: what a PATCH sends. */
export function changedValues(
  loaded: Readonly<Record<string, unknown>>,
  values: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values))
    if (value !== undefined && JSON.stringify(value) !== JSON.stringify(loaded[name])) out[name] = value;
  return out;
}
