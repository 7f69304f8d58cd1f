import { Client, Filter, InvalidCredentialsError, ResultCodeError, type Entry } from 'ldapts';
import type { LdapConfig } from './config.ts';

/**
 * The directory client (ldapts): connect with AUTH_LDAP_CONNECT_TIMEOUT (an address that does not
 * answer ends in a timeout, never a hang), bind as the service account, search under each OU with
 * paging (a directory's size limit, often 500, never cuts a sync short), bind as a user.
 */

/** The directory could not be reached (refused, timed out, TLS failure). */
export class LdapUnavailable extends Error {}
/** The service account (AUTH_LDAP_BIND_DN) was refused. */
export class LdapBindFailed extends Error {}

/** A directory user as the attribute map makes it: `username` and the mapped fields. */
export interface LdapProfile {
  dn: string;
  username: string;
  name: string;
  email: string;
  groups: string[];
  [field: string]: unknown;
}

const USER_PLACEHOLDER = '%(user)s';

/** The search filter for one username (escaped, RFC 4515), or for everyone (`*`). */
export function userFilter(config: LdapConfig, username: string | '*'): string {
  const value = username === '*' ? '*' : Filter.escape(username);
  return config.filter.split(USER_PLACEHOLDER).join(value);
}

function first(v: Entry[string] | undefined): string {
  const x = Array.isArray(v) ? v[0] : v;
  return x === undefined ? '' : Buffer.isBuffer(x) ? x.toString('utf8') : String(x);
}

function all(v: Entry[string] | undefined): string[] {
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).map((x) => (Buffer.isBuffer(x) ? x.toString('utf8') : String(x)));
}

/** The entry mapped by AUTH_LDAP_USER_ATTR_MAP (attribute names compared without case). */
export function toProfile(config: LdapConfig, entry: Entry): LdapProfile {
  const lower = new Map(Object.entries(entry).map(([k, v]) => [k.toLowerCase(), v]));
  const out: Record<string, unknown> = { dn: entry.dn, name: '', email: '' };
  for (const [field, attr] of Object.entries(config.attrMap)) out[field] = first(lower.get(attr.toLowerCase())).trim();
  const groups = all(lower.get('memberof')).map((dn) => /^cn=([^,]+)/i.exec(dn)?.[1] ?? dn);
  return { ...out, username: String(out.username ?? ''), groups } as LdapProfile;
}

const attributes = (config: LdapConfig) => [...new Set([...Object.values(config.attrMap), 'memberOf'])];

function unavailable(e: unknown): Error {
  if (e instanceof ResultCodeError) return e;
  return new LdapUnavailable((e as Error).message || String(e));
}

/** A connected client bound as the service account; tries each address in turn. */
async function serviceClient(config: LdapConfig, timeoutMs = config.timeoutMs): Promise<Client> {
  let last: unknown = new LdapUnavailable('no server address');
  for (const url of config.uris) {
    const client = new Client({ url, connectTimeout: config.timeoutMs, timeout: timeoutMs, strictDN: false });
    try {
      if (config.bindDn) await client.bind(config.bindDn, config.bindPassword);
      return client;
    } catch (e) {
      await client.unbind().catch(() => undefined);
      if (e instanceof ResultCodeError) throw new LdapBindFailed(e.message.trim() || e.name);
      last = unavailable(e);
    }
  }
  throw last;
}

async function closing<T>(client: Client, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw unavailable(e);
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

/**
 * The entry of one username: the only match under the OUs, or undefined when none matches or the
 * filter is ambiguous (several entries: no way to tell whose password it is).
 */
export async function findEntry(config: LdapConfig, username: string): Promise<LdapProfile | undefined> {
  const client = await serviceClient(config);
  return closing(client, async () => {
    const found: Entry[] = [];
    for (const base of config.searchOus) {
      const { searchEntries } = await client.search(base, {
        scope: 'sub',
        filter: userFilter(config, username),
        attributes: attributes(config),
      });
      found.push(...searchEntries);
    }
    return found.length === 1 ? toProfile(config, found[0]!) : undefined;
  });
}

/** Whether `dn` accepts `password` (an empty password is refused: LDAP would take it as anonymous). */
export async function bindAs(config: LdapConfig, dn: string, password: string): Promise<boolean> {
  if (!password) return false;
  let last: unknown;
  for (const url of config.uris) {
    const client = new Client({ url, connectTimeout: config.timeoutMs, timeout: config.timeoutMs, strictDN: false });
    try {
      await client.bind(dn, password);
      return true;
    } catch (e) {
      if (e instanceof InvalidCredentialsError) return false;
      if (e instanceof ResultCodeError) return false;
      last = unavailable(e);
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }
  throw last ?? new LdapUnavailable('no server address');
}

/**
 * Every user under the OUs matching the filter (`%(user)s` as `*`), page by page
 * (AUTH_LDAP_SEARCH_PAGED_SIZE); `onPage` sees each page as it arrives.
 */
export async function searchAll(config: LdapConfig, onPage: (profiles: LdapProfile[]) => void): Promise<number> {
  // A long sync: each page has a minute at least, the connection the configured timeout.
  const client = await serviceClient(config, Math.max(config.timeoutMs, 60_000));
  return closing(client, async () => {
    let count = 0;
    for (const base of config.searchOus) {
      const pages = client.searchPaginated(base, {
        scope: 'sub',
        filter: userFilter(config, '*'),
        attributes: attributes(config),
        paged: { pageSize: config.pageSize },
      });
      for await (const page of pages) {
        const profiles = page.searchEntries.map((e) => toProfile(config, e)).filter((p) => p.username !== '');
        count += profiles.length;
        onPage(profiles);
      }
    }
    return count;
  });
}
