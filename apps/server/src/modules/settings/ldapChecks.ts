import { FilterParser } from 'ldapts';

/**
 * Checks of the LDAP settings beyond their declared type (settingValidate.ts): the server address
 * and the search filter. Each answers a message key of the settings catalogue and its parameters,
 * or nothing when the value is fine.
 */
export type LdapProblem = { key: 'invalid_ldap_uri' | 'invalid_ldap_filter' | 'ldap_filter_user'; problem?: string };

/** The stand-in of the username in AUTH_LDAP_SEARCH_FILTER (the original's Python format). */
export const USER_PLACEHOLDER = '%(user)s';

export function checkLdapUri(value: string): LdapProblem | undefined {
  for (const uri of value.split(/[\s,]+/).filter(Boolean)) {
    try {
      const u = new URL(uri);
      if ((u.protocol === 'ldap:' || u.protocol === 'ldaps:') && u.hostname) continue;
    } catch {
      /* refused below */
    }
    return { key: 'invalid_ldap_uri' };
  }
  return undefined;
}

/** Parentheses balanced and around the whole filter (ldapts's parser alone accepts `(&(a=b)`). */
function balanced(filter: string): boolean {
  if (!filter.startsWith('(') || !filter.endsWith(')')) return false;
  let depth = 0;
  for (let i = 0; i < filter.length; i++) {
    const c = filter[i];
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return false;
    if (depth === 0 && i < filter.length - 1) return false;
  }
  return depth === 0;
}

export function checkLdapFilter(value: string): LdapProblem | undefined {
  if (!value.includes(USER_PLACEHOLDER)) return { key: 'ldap_filter_user' };
  const filter = value.split(USER_PLACEHOLDER).join('user');
  if (!balanced(filter)) return { key: 'invalid_ldap_filter', problem: value };
  try {
    FilterParser.parseString(filter);
  } catch (e) {
    return { key: 'invalid_ldap_filter', problem: (e as Error).message };
  }
  return undefined;
}

/** The per-field checks of the settings that need one. */
export const FIELD_CHECKS: Readonly<Record<string, (value: string) => LdapProblem | undefined>> = {
  AUTH_LDAP_SERVER_URI: checkLdapUri,
  AUTH_LDAP_SEARCH_FILTER: checkLdapFilter,
};
