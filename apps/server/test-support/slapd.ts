import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitForPort } from './ports.ts';

/**
 * A throw-away OpenLDAP directory (/usr/sbin/slapd, mdb backend) on 127.0.0.1 for tests and
 * benchmarks (scripts/setup-machine.sh installs slapd and ldap-utils). Its entries are written
 * offline with `slapadd` before it starts (10,000 users in a second or two), more with `add()`
 * (ldapadd, one batch). slapd runs under a shell that kills it when its stdin closes, so it ends
 * with the test process however that ends; `stop()` ends it at once. Imports nothing of the server.
 *
 * Layout: `dc=example,dc=org`, users `cn=<username>,ou=users,…` (inetOrgPerson with uid, sn, mail
 * and a clear-text userPassword), groups `cn=<group>,ou=groups,…` (groupOfNames), the service
 * account LDAP_READER_DN. Searches without paging stop at 500 entries (as slapd's default); paged
 * ones may read everything.
 */

export const LDAP_BASE = 'dc=example,dc=org';
export const LDAP_ROOT_DN = `cn=admin,${LDAP_BASE}`;
export const LDAP_ROOT_PASSWORD = 'Ldap-root-1';
/** A service account without the root's exemption from limits (the sync's bind in tests). */
export const LDAP_READER_DN = `cn=reader,${LDAP_BASE}`;
export const LDAP_READER_PASSWORD = 'Ldap-reader-1';
export const LDAP_USERS_OU = `ou=users,${LDAP_BASE}`;
export const LDAP_GROUPS_OU = `ou=groups,${LDAP_BASE}`;

export interface LdapUser {
  username: string;
  password: string;
  /** sn; the username when absent. */
  name?: string;
  /** mail; none when null. `${username}@example.org` when absent. */
  email?: string | null;
  /** Names of groups (created as needed) the user is a member of. */
  groups?: string[];
}

export interface Slapd {
  url: string;
  port: number;
  /** Adds users (and their groups) to the running directory in one ldapadd batch. */
  add(users: LdapUser[]): void;
  stop(): void;
}

export interface SlapdOptions {
  users?: LdapUser[];
  /** Also `bulk` generated users `bulk00001`… (password `Bulk-pass-1`, no groups). */
  bulk?: number;
}

export const BULK_PASSWORD = 'Bulk-pass-1';

/**
 * The `ldap` settings category pointed at a test directory: the reader's bind, the users' OU, `cn`
 * as the username; `extra` over them (the tests' own switches and sizes).
 */
export function ldapSettings(slapd: Pick<Slapd, 'url'>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    AUTH_LDAP: true,
    AUTH_LDAP_SERVER_URI: slapd.url,
    AUTH_LDAP_BIND_DN: LDAP_READER_DN,
    AUTH_LDAP_BIND_PASSWORD: LDAP_READER_PASSWORD,
    AUTH_LDAP_SEARCH_OU: LDAP_USERS_OU,
    AUTH_LDAP_SEARCH_FILTER: '(cn=%(user)s)',
    AUTH_LDAP_USER_ATTR_MAP: { username: 'cn', name: 'sn', email: 'mail' },
    ...extra,
  };
}

const ldifValue = (v: string) =>
  /^[\x20-\x7e]*$/.test(v) && !/^[ :<]/.test(v) ? ` ${v}` : `: ${Buffer.from(v).toString('base64')}`;

function userLdif(u: LdapUser): string {
  const lines = [
    `dn: cn=${u.username},${LDAP_USERS_OU}`,
    'objectClass: inetOrgPerson',
    `cn:${ldifValue(u.username)}`,
    `uid:${ldifValue(u.username)}`,
    `sn:${ldifValue(u.name ?? u.username)}`,
    `userPassword:${ldifValue(u.password)}`,
  ];
  const email = u.email === undefined ? `${u.username}@example.org` : u.email;
  if (email) lines.push(`mail:${ldifValue(email)}`);
  return `${lines.join('\n')}\n\n`;
}

function groupsLdif(users: LdapUser[]): string {
  const members = new Map<string, string[]>();
  for (const u of users)
    for (const g of u.groups ?? []) members.set(g, [...(members.get(g) ?? []), `cn=${u.username},${LDAP_USERS_OU}`]);
  return [...members]
    .map(
      ([g, dns]) =>
        `dn: cn=${g},${LDAP_GROUPS_OU}\nobjectClass: groupOfNames\ncn: ${g}\n${dns.map((d) => `member: ${d}`).join('\n')}\n\n`,
    )
    .join('');
}

function bulkLdif(n: number): string {
  let out = '';
  for (let i = 1; i <= n; i++) {
    const username = `bulk${String(i).padStart(5, '0')}`;
    out += userLdif({ username, password: BULK_PASSWORD, name: `Bulk ${i}` });
  }
  return out;
}

export async function startSlapd(options: SlapdOptions = {}): Promise<Slapd> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-slapd-'));
  const file = (name: string) => path.join(dir, name);
  fs.mkdirSync(file('data'));
  const schema = ['core', 'cosine', 'inetorgperson', 'nis'].map((s) => `include /etc/ldap/schema/${s}.schema`);
  fs.writeFileSync(
    file('slapd.conf'),
    [
      ...schema,
      `pidfile ${file('slapd.pid')}`,
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      'database mdb',
      'maxsize 1073741824',
      `suffix "${LDAP_BASE}"`,
      `rootdn "${LDAP_ROOT_DN}"`,
      `rootpw ${LDAP_ROOT_PASSWORD}`,
      `directory ${file('data')}`,
      'index objectClass,cn,uid eq',
      // A search without paging stops at 500 entries; a paged one may read them all.
      'limits * size.soft=500 size.hard=500 size.prtotal=unlimited',
      '',
    ].join('\n'),
  );
  const users = options.users ?? [];
  const base =
    `dn: ${LDAP_BASE}\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: Example\n\n` +
    `dn: ${LDAP_USERS_OU}\nobjectClass: organizationalUnit\nou: users\n\n` +
    `dn: ${LDAP_GROUPS_OU}\nobjectClass: organizationalUnit\nou: groups\n\n` +
    `dn: ${LDAP_READER_DN}\nobjectClass: organizationalRole\nobjectClass: simpleSecurityObject\ncn: reader\n` +
    `userPassword: ${LDAP_READER_PASSWORD}\n\n`;
  fs.writeFileSync(
    file('seed.ldif'),
    base + users.map(userLdif).join('') + groupsLdif(users) + bulkLdif(options.bulk ?? 0),
  );
  execFileSync('/usr/sbin/slapadd', ['-q', '-f', file('slapd.conf'), '-l', file('seed.ldif')], { stdio: 'pipe' });

  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  // `-d 0` keeps slapd in the foreground; the shell kills it once its stdin (our pipe) closes.
  const child = spawn(
    '/bin/sh',
    [
      '-c',
      'slapd -d 0 -h "$1" -f "$2" & pid=$!; cat >/dev/null; kill $pid; wait $pid',
      'sh',
      `${url}/`,
      file('slapd.conf'),
    ],
    { stdio: ['pipe', 'ignore', 'ignore'] },
  );
  child.unref();
  (child.stdin as unknown as net.Socket | null)?.unref();
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    child.stdin?.end();
    try {
      const pid = Number(fs.readFileSync(file('slapd.pid'), 'utf8'));
      if (pid) process.kill(pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stop);
  await waitForPort(port);
  return {
    url,
    port,
    add(more) {
      fs.writeFileSync(file('add.ldif'), more.map(userLdif).join('') + groupsLdif(more));
      execFileSync('ldapadd', ['-x', '-H', url, '-D', LDAP_ROOT_DN, '-w', LDAP_ROOT_PASSWORD, '-f', file('add.ldif')], {
        stdio: 'pipe',
      });
    },
    stop,
  };
}
