import type { SettingsStore } from '../../settings/store.ts';

/** The LDAP settings (Settings › Auth › LDAP) as the directory client uses them. */
export interface LdapConfig {
  /** AUTH_LDAP_SERVER_URI: one or more addresses (space or comma separated), tried in order. */
  uris: string[];
  bindDn: string;
  bindPassword: string;
  /** AUTH_LDAP_SEARCH_OU split on `|`. */
  searchOus: string[];
  /** AUTH_LDAP_SEARCH_FILTER, with `%(user)s` for the username. */
  filter: string;
  /** Gatehouse field → directory attribute; `username` always present. */
  attrMap: Record<string, string>;
  /** AUTH_LDAP_CONNECT_TIMEOUT in milliseconds: connecting and each request. */
  timeoutMs: number;
  pageSize: number;
}

export async function loadLdapConfig(
  settings: SettingsStore,
  /** Values of a form not saved yet (the test routes): they replace the stored ones. */
  override: Record<string, unknown> = {},
): Promise<LdapConfig> {
  const v = async (name: string): Promise<unknown> => (name in override ? override[name] : settings.valueOf(name));
  const password =
    typeof override.AUTH_LDAP_BIND_PASSWORD === 'string' && override.AUTH_LDAP_BIND_PASSWORD !== ''
      ? override.AUTH_LDAP_BIND_PASSWORD
      : await settings.secret('AUTH_LDAP_BIND_PASSWORD');
  const map = await v('AUTH_LDAP_USER_ATTR_MAP');
  return {
    uris: String(await v('AUTH_LDAP_SERVER_URI'))
      .split(/[\s,]+/)
      .filter(Boolean),
    bindDn: String((await v('AUTH_LDAP_BIND_DN')) ?? ''),
    bindPassword: password,
    searchOus: String((await v('AUTH_LDAP_SEARCH_OU')) ?? '')
      .split('|')
      .map((s) => s.trim())
      .filter(Boolean),
    filter: String(await v('AUTH_LDAP_SEARCH_FILTER')),
    attrMap: typeof map === 'object' && map !== null ? (map as Record<string, string>) : { username: 'cn' },
    timeoutMs: Math.max(1, Number(await v('AUTH_LDAP_CONNECT_TIMEOUT')) || 10) * 1000,
    pageSize: Math.max(1, Number(await v('AUTH_LDAP_SEARCH_PAGED_SIZE')) || 1000),
  };
}
