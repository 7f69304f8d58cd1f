import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import mysql from 'mysql2/promise';
import pg from 'pg';
import ssh2 from 'ssh2';
import type { Language } from '@gatehouse/contract';
import { targetOf } from '../assets/connectivity.ts';
import { openSsh, openTunnel } from '../terminal/gateway/sshConnect.ts';
import { gatewayOf, resolveTarget, suCommand, type Hop } from '../terminal/gateway/sshTarget.ts';
import { am } from './automationText.ts';
import { toBool } from '../../platform/db/schema.ts';
import { suChangePassword, suHasKey, suLogin, suSetKey } from './suSteps.ts';

/**
 * How an automation acts on one asset (docs/automations.md): over SSH on hosts (the terminal's own
 * connection path: host keys trusted on first use, the domain's gateway by `forwardOut`), or over
 * the database's own protocol (mysql2, pg) on MySQL/MariaDB and PostgreSQL assets, through the
 * domain's gateway as a tunnel. Each protocol changes a secret with the asset's privileged account
 * and tries a fresh login with a given secret. Nothing here writes the vault.
 */
export interface Secret {
  type: 'password' | 'ssh_key';
  secret: string;
  passphrase?: string;
}

export interface HostProtocol {
  /** Sets `username`'s secret on the asset; throws with the asset's own words when it refuses. */
  change(username: string, next: Secret, keyStrategy: string): Promise<void>;
  /** Creates `username` with `secret` (push); `sudo` adds it to the sudoers. */
  create(username: string, secret: Secret, o: { sudo: boolean; shell: string; home: string }): Promise<void>;
  /** A fresh login as `username`; undefined when it opened, else why not. */
  login(username: string, secret: Secret): Promise<string | undefined>;
  /** Runs a read-only query of the asset's accounts (gather). */
  accounts(): Promise<{ username: string; last_login: string | null; address: string }[]>;
}

/** A refusal before anything reached the asset, in the run's language. */
export class NotApplicable extends Error {}

const EXEC_TIMEOUT_MS = 30_000;
/** Keys Gatehouse puts in authorized_keys end with this comment, so `set_jms` finds them again. */
export const KEY_MARK = 'gatehouse-managed';
/** Usernames a host or database can take as they are: no quoting games anywhere. */
export const SAFE_USERNAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function publicKeyOf(secret: Secret): string {
  const parsed = ssh2.utils.parseKey(secret.secret, secret.passphrase || undefined);
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!key || key instanceof Error) throw new Error('the SSH key does not parse');
  return `${key.type} ${key.getPublicSSH().toString('base64')} ${KEY_MARK}`;
}

interface AssetRow {
  id: string;
  name: string;
  address: string;
  category: string;
  type: string;
  db_name: string | null;
  domain_id: string | null;
}

async function privilegedAccount(app: FastifyInstance, assetId: string, types: string[]) {
  return app.deps.database.db
    .selectFrom('accounts_account')
    .selectAll()
    .where('asset_id', '=', assetId)
    .where('privileged', '=', true)
    .where('is_active', '=', true)
    .where('secret', 'is not', null)
    .where('secret_type', 'in', types)
    .orderBy('name')
    .execute()
    .then((rows) => rows.sort((a, b) => Number(b.username === 'root') - Number(a.username === 'root'))[0]);
}

/** Runs `cmd` on an open client with `stdin`, within EXEC_TIMEOUT_MS; the exit code and output. */
function exec(client: ssh2.Client, cmd: string, stdin: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${EXEC_TIMEOUT_MS / 1000} s`)), EXEC_TIMEOUT_MS);
    client.exec(cmd, (err, ch) => {
      if (err) {
        clearTimeout(timer);
        return reject(err);
      }
      let out = '';
      const keep = (d: Buffer) => (out = (out + d.toString('utf8')).slice(-4000));
      ch.on('data', keep);
      ch.stderr.on('data', keep);
      ch.on('close', (code: number | null) => {
        clearTimeout(timer);
        resolve({ code, out: out.trim() });
      });
      // stdin is closed at once: a program that asks something unexpected reads end-of-file and ends.
      ch.end(stdin);
    });
  });
}

const SET_KEY_SCRIPT = [
  'set -e',
  'u="$1"; mode="$2"; key="$3"; mark="$4"',
  'home=$(getent passwd "$u" | cut -d: -f6)',
  '[ -n "$home" ] || { echo "no such user: $u" >&2; exit 3; }',
  'mkdir -p "$home/.ssh"; f="$home/.ssh/authorized_keys"; touch "$f"',
  'case "$mode" in set) : > "$f";; set_jms) grep -v " $mark\\$" "$f" > "$f.gh" || true; cat "$f.gh" > "$f"; rm -f "$f.gh";; esac',
  'grep -qxF "$key" "$f" || printf "%s\\n" "$key" >> "$f"',
  'chown -R "$u": "$home/.ssh"; chmod 700 "$home/.ssh"; chmod 600 "$f"',
].join('\n');

/** The `sh -c` line of a script with its arguments, each quoted (the remote shell reads one string). */
const shLine = (script: string, args: string[]) => `sh -c ${quote(script)} sh ${args.map(quote).join(' ')}`;

async function sshProtocol(app: FastifyInstance, lang: Language, asset: AssetRow): Promise<HostProtocol> {
  const db = app.deps.database.db;
  const box = app.deps.secretBox;
  const priv = await privilegedAccount(app, asset.id, ['password', 'ssh_key']);
  // Without a privileged account only the accounts reached by su (below) can be changed.
  const suOnly = !priv
    ? await db
        .selectFrom('accounts_account')
        .select('id')
        .where('asset_id', '=', asset.id)
        .where('su_from_id', 'is not', null)
        .executeTakeFirst()
    : undefined;
  if (!priv && !suOnly) throw new NotApplicable(am(lang, 'no_privileged'));
  const resolvedOrNot = priv ? await resolveTarget(db, box, lang, asset.id, priv.id) : undefined;
  const privileged = () => {
    if (!resolvedOrNot) throw new NotApplicable(am(lang, 'no_privileged'));
    return resolvedOrNot;
  };
  const root = priv?.username === 'root';
  const sudoPassword = resolvedOrNot?.target.credentials.password;
  // Not root: sudo, answered with the privileged account's password on stdin's first line.
  const asRoot = (cmd: string) => (root ? cmd : `sudo -S -p '' ${cmd}`);
  const rootStdin = (rest: string) => (root ? rest : `${sudoPassword ?? ''}\n${rest}`);
  const run = async (cmd: string, stdin: string) => {
    const resolved = privileged();
    const link = await openSsh(db, lang, resolved.target, resolved.gateway);
    try {
      const r = await exec(link.client, asRoot(cmd), rootStdin(stdin));
      if (r.code !== 0) throw new Error(r.out || `exit code ${r.code}`);
      return r.out;
    } finally {
      link.end();
    }
  };
  const hopFor = (username: string, s: Secret): Hop => ({
    ...privileged().target,
    credentials:
      s.type === 'password'
        ? { username, password: s.secret }
        : { username, privateKey: s.secret, ...(s.passphrase ? { passphrase: s.passphrase } : {}) },
  });
  const windows = asset.type === 'windows';
  // Accounts reached by `su` from another account of the asset (`su_from`, the platform's su
  // enabled): their secret is changed and verified through the switch (logged in as the account
  // switched from, by password or key), not by the privileged account or a login of their own.
  const viaSu = async (username: string, type: Secret['type']) => {
    const row = await db
      .selectFrom('accounts_account as ac')
      .innerJoin('assets_asset as a', 'a.id', 'ac.asset_id')
      .innerJoin('assets_platform as p', 'p.id', 'a.platform_id')
      .select(['ac.su_from_id', 'ac.secret', 'p.su_enabled', 'p.su_method'])
      .where('ac.asset_id', '=', asset.id)
      .where('ac.username', '=', username)
      .where('ac.su_from_id', 'is not', null)
      .where('ac.secret_type', '=', type)
      .executeTakeFirst();
    if (!row?.su_from_id || !toBool(row.su_enabled) || windows) return undefined;
    const from = await resolveTarget(db, box, lang, asset.id, row.su_from_id);
    const method = row.su_method || 'su';
    const current = type === 'password' && row.secret ? box.decrypt(row.secret) : undefined;
    return {
      target: from.target,
      gateway: from.gateway,
      command: suCommand(method, username),
      // su asks the account's password (none for a key account: only root switches without), sudo the login's.
      switchPassword: method === 'sudo' ? from.target.credentials.password : current,
      current: current ?? '',
    };
  };
  const onSu = async <T>(su: NonNullable<Awaited<ReturnType<typeof viaSu>>>, fn: (c: ssh2.Client) => Promise<T>) => {
    const link = await openSsh(db, lang, su.target, su.gateway);
    try {
      return await fn(link.client);
    } finally {
      link.end();
    }
  };
  const proto: HostProtocol = {
    async change(username, next, keyStrategy) {
      const su = await viaSu(username, next.type);
      if (su && next.type === 'password')
        return onSu(su, (c) => suChangePassword(c, { username, ...su, next: next.secret }));
      if (su)
        return onSu(su, (c) =>
          suSetKey(c, {
            username,
            ...su,
            line: shLine(SET_KEY_SCRIPT, [username, keyStrategy, publicKeyOf(next), KEY_MARK]),
          }),
        );
      if (next.type === 'password') {
        if (windows) await run(`net user ${username} ${quote(next.secret)}`, '');
        else await run('chpasswd', `${username}:${next.secret}\n`);
        return;
      }
      if (windows) throw new NotApplicable(am(lang, 'key_on_windows'));
      await run(shLine(SET_KEY_SCRIPT, [username, keyStrategy, publicKeyOf(next), KEY_MARK]), '');
    },
    async create(username, secret, o) {
      if (windows && secret.type === 'ssh_key') throw new NotApplicable(am(lang, 'push_key_windows'));
      const script = [
        'set -e',
        'u="$1"; shell="$2"; home="$3"; sudo="$4"; kind="$5"',
        'if [ "$sudo" = yes ] && ! command -v sudo >/dev/null 2>&1; then echo "sudo is not installed on this host" >&2; exit 4; fi',
        'if ! id "$u" >/dev/null 2>&1; then',
        '  if [ -n "$home" ]; then useradd -m -d "$home" -s "$shell" "$u"; else useradd -m -s "$shell" "$u"; fi',
        // A new account is locked ("!"), and sshd without PAM refuses even its keys: "*" is no password, not locked.
        '  if [ "$kind" = ssh_key ]; then usermod -p "*" "$u"; fi',
        'fi',
        'if [ "$sudo" = yes ]; then mkdir -p /etc/sudoers.d; echo "$u ALL=(ALL) NOPASSWD: ALL" > "/etc/sudoers.d/gh-$u"; chmod 440 "/etc/sudoers.d/gh-$u"; fi',
      ].join('\n');
      await run(shLine(script, [username, o.shell || '/bin/bash', o.home, o.sudo ? 'yes' : 'no', secret.type]), '');
      await proto.change(username, secret, 'add');
    },
    async login(username, s) {
      const su = await viaSu(username, s.type).catch((e: Error) => e);
      if (su instanceof Error) return su.message;
      if (su) {
        try {
          return await onSu(su, (c) =>
            s.type === 'password'
              ? suLogin(c, username, s.secret)
              : suHasKey(c, { username, ...su, quotedKey: quote(publicKeyOf(s)) }),
          );
        } catch (e) {
          return (e as Error).message;
        }
      }
      try {
        const link = await openSsh(db, lang, hopFor(username, s), privileged().gateway);
        link.end();
        return undefined;
      } catch (e) {
        return (e as Error).message;
      }
    },
    async accounts() {
      const out = await run(
        shLine(
          [
            'getent passwd | while IFS=: read -r u _ uid _ _ _ sh; do',
            '  case "$sh" in */nologin|*/false|"") continue;; esac',
            '  last=$(lastlog -u "$u" 2>/dev/null | tail -n +2 | grep -v "Never logged in" | awk \'{print $4" "$5" "$6" "$7" "$9}\')',
            '  printf "%s\\t%s\\n" "$u" "$last"',
            'done',
          ].join('\n'),
          [],
        ),
        '',
      );
      return out
        .split('\n')
        .filter(Boolean)
        .map((l) => {
          const [username, last] = l.split('\t');
          const d = last?.trim() ? new Date(last.trim()) : undefined;
          return {
            username: username!,
            last_login: d && !Number.isNaN(d.getTime()) ? d.toISOString() : null,
            address: '',
          };
        });
    },
  };
  return proto;
}

/** A TCP stream to the database, through the domain's gateway when the asset has a domain. */
async function dbStream(
  app: FastifyInstance,
  lang: Language,
  asset: AssetRow,
  target: { host: string; port: number },
): Promise<{ stream?: Duplex; end(): void }> {
  if (!asset.domain_id) return { end: () => undefined };
  const gateway = await gatewayOf(app.deps.database.db, app.deps.secretBox, asset.domain_id, lang);
  if (!gateway) throw new NotApplicable(am(lang, 'no_protocol', { protocol: 'gateway' }));
  const t = await openTunnel(app.deps.database.db, lang, gateway, target);
  return { stream: t.sock, end: () => t.jump.end() };
}

type Sql = { query(q: string, params?: unknown[]): Promise<unknown[]>; end(): Promise<void> };

async function connectDb(
  app: FastifyInstance,
  lang: Language,
  asset: AssetRow,
  target: { host: string; port: number },
  username: string,
  password: string,
): Promise<Sql> {
  const tunnel = await dbStream(app, lang, asset, target);
  try {
    if (asset.type === 'postgresql') {
      let stream: Duplex | undefined;
      if (tunnel.stream) {
        // pg calls connect/setNoDelay on its stream: a tunnel channel is connected already.
        stream = Object.assign(tunnel.stream, {
          connect: () => process.nextTick(() => stream!.emit('connect')),
          setNoDelay: () => undefined,
          setKeepAlive: () => undefined,
        });
      }
      const c = new pg.Client({
        host: target.host,
        port: target.port,
        user: username,
        password,
        database: asset.db_name || 'postgres',
        connectionTimeoutMillis: 10_000,
        ...(stream ? { stream: () => stream as never } : {}),
      });
      await c.connect();
      return {
        query: async (q, params) => (await c.query(q, params)).rows,
        end: async () => {
          await c.end().catch(() => undefined);
          tunnel.end();
        },
      };
    }
    const c = await mysql.createConnection({
      host: target.host,
      port: target.port,
      user: username,
      password,
      connectTimeout: 10_000,
      ...(asset.db_name ? { database: asset.db_name } : {}),
      ...(tunnel.stream ? { stream: tunnel.stream as never } : {}),
    });
    return {
      query: async (q, params) => (await c.query(q, params))[0] as unknown[],
      end: async () => {
        await c.end().catch(() => undefined);
        tunnel.end();
      },
    };
  } catch (e) {
    tunnel.end();
    throw e;
  }
}

async function dbProtocol(app: FastifyInstance, lang: Language, asset: AssetRow): Promise<HostProtocol> {
  const db = app.deps.database.db;
  const box = app.deps.secretBox;
  const protocols = await db
    .selectFrom('assets_protocol')
    .select(['name', 'port'])
    .where('asset_id', '=', asset.id)
    .execute();
  const p = protocols.find((x) => x.name === asset.type) ?? protocols[0];
  if (!p) throw new NotApplicable(am(lang, 'no_protocol', { protocol: asset.type }));
  const target = targetOf(asset.address, { name: p.name, port: Number(p.port) });
  const priv = await privilegedAccount(app, asset.id, ['password']);
  const privileged = async () => {
    if (!priv) throw new NotApplicable(am(lang, 'no_privileged'));
    return connectDb(app, lang, asset, target, priv.username, box.decrypt(priv.secret!));
  };
  const pgsql = asset.type === 'postgresql';
  const withPriv = async <T>(fn: (c: Sql) => Promise<T>): Promise<T> => {
    const c = await privileged();
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  };
  const setPassword = async (c: Sql, username: string, password: string, create: boolean) => {
    if (pgsql) {
      const client = new pg.Client();
      const ident = client.escapeIdentifier(username);
      const literal = client.escapeLiteral(password);
      await c.query(`${create ? 'CREATE' : 'ALTER'} ROLE ${ident} WITH LOGIN PASSWORD ${literal}`);
      return;
    }
    if (create) {
      await c.query('CREATE USER IF NOT EXISTS ?@? IDENTIFIED BY ?', [username, '%', password]);
      return;
    }
    // Every host part the user has; without the right to read them, the common '%'.
    const hosts = await c
      .query('SELECT Host AS host FROM mysql.user WHERE User = ?', [username])
      .then((rows) => (rows as { host: string }[]).map((r) => r.host))
      .catch(() => ['%']);
    if (!hosts.length) throw new Error(`no such user: ${username}`);
    for (const h of hosts) await c.query('ALTER USER ?@? IDENTIFIED BY ?', [username, h, password]);
  };
  return {
    async change(username, next) {
      if (next.type !== 'password') throw new NotApplicable(am(lang, 'key_on_database'));
      await withPriv((c) => setPassword(c, username, next.secret, false));
    },
    async create(username, secret) {
      if (secret.type !== 'password') throw new NotApplicable(am(lang, 'key_on_database'));
      await withPriv((c) => setPassword(c, username, secret.secret, true));
    },
    async login(username, s) {
      if (s.type !== 'password') return am(lang, 'key_on_database');
      try {
        const c = await connectDb(app, lang, asset, target, username, s.secret);
        await c.query('SELECT 1');
        await c.end();
        return undefined;
      } catch (e) {
        return (e as Error).message;
      }
    },
    async accounts() {
      return withPriv(async (c) => {
        const rows = pgsql
          ? await c.query('SELECT rolname AS username FROM pg_roles WHERE rolcanlogin ORDER BY rolname')
          : await c.query('SELECT DISTINCT User AS username FROM mysql.user ORDER BY User');
        return (rows as { username: string }[]).map((r) => ({ username: r.username, last_login: null, address: '' }));
      });
    },
  };
}

export const DB_TYPES = ['mysql', 'mariadb', 'postgresql'];

/** The protocol of an asset; NotApplicable (with the reason) when automations cannot act on it. */
export async function protocolFor(app: FastifyInstance, lang: Language, assetId: string): Promise<HostProtocol> {
  const asset = await app.deps.database.db
    .selectFrom('assets_asset')
    .select(['id', 'name', 'address', 'category', 'type', 'db_name', 'domain_id'])
    .where('id', '=', assetId)
    .executeTakeFirstOrThrow();
  if (asset.category === 'database' && DB_TYPES.includes(asset.type)) return dbProtocol(app, lang, asset);
  if (asset.category === 'host' && ['linux', 'unix', 'windows'].includes(asset.type))
    return sshProtocol(app, lang, asset);
  throw new NotApplicable(am(lang, 'unsupported_platform', { platform: asset.type }));
}
