import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { startDelayProxy, type DelayProxy } from './delayProxy.ts';
import { adminClient, createTestApp, SessionClient, type TestApp } from './testApp.ts';
import { createUser, USER_PASSWORD } from './auth.ts';
import { apiPost } from './accounts.ts';
import { sshHost, type SshHost } from './sshAsset.ts';
import { gatewayOf } from '../src/modules/terminal/gatewayInstance.ts';
import { startShellSshd, type SshdWithUsers } from './sshd.ts';

/** Helpers of the gateway tests: a user at a terminal, and an asset with accounts on a test sshd. */

/** Reads a session's terminal output and types into it as a person would, key by key. */
export class TestTerminal {
  text = '';
  ended = false;

  constructor(private readonly stream: Duplex) {
    stream.setEncoding('utf8');
    stream.on('data', (s: string) => (this.text += s));
    stream.on('end', () => (this.ended = true));
  }

  /** Waits until the output (from `from` on) matches. */
  async waitFor(re: RegExp | string, from = 0, ms = 10000): Promise<void> {
    const test = () => (typeof re === 'string' ? this.text.slice(from).includes(re) : re.test(this.text.slice(from)));
    for (let waited = 0; !test(); waited += 20) {
      if (waited > ms) throw new Error(`no ${String(re)} in terminal output:\n${this.text.slice(from)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async waitEnd(ms = 10000): Promise<void> {
    for (let waited = 0; !this.ended; waited += 20) {
      if (waited > ms) throw new Error('the session did not end');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Sends keys one at a time (escape sequences whole), at a typist's pace (`typeKeys`). */
  type(keys: string | string[], gapMs = 15): Promise<void> {
    return typeKeys((k) => this.stream.write(k), keys, gapMs);
  }

  /** Types a line and Enter, then waits for the next prompt. */
  async run(line: string, prompt = 'gh$ '): Promise<void> {
    const from = this.text.length;
    await this.type(line);
    await this.type('\r');
    await this.waitFor(prompt, from + 1);
  }
}

/**
 * Keys sent one at a time (escape sequences whole) with a gap between them, as a person types: the
 * gateway's line reading is about keys arriving apart (each echoed before the next), which a
 * pasted chunk does not exercise; with echo off there is no echo to wait for, so the gap is the
 * typing itself, not a wait for an event.
 */
export async function typeKeys(send: (key: string) => void, keys: string | string[], gapMs = 15): Promise<void> {
  for (const k of typeof keys === 'string' ? [...keys] : keys) {
    send(k);
    await new Promise((r) => setTimeout(r, gapMs));
  }
}

export const KEY = { up: '\x1b[A', left: '\x1b[D', esc: '\x1b', ctrlC: '\x03' } as const;

/** A Linux host on the sshd's port (`sshd.port`) with a password account and a key account (sshAsset.ts). */
export function hostWithAccounts(
  admin: SessionClient,
  sshd: Pick<SshdWithUsers, 'port' | 'username' | 'password' | 'privateKey'>,
  extra: Record<string, unknown> = {},
): Promise<SshHost> {
  return sshHost(apiPost(admin), sshd, { host: extra, key: true });
}

export interface GatewayUser {
  id: string;
  name: string;
  username: string;
}

/** The built-in admin as the gateway knows a user. */
export function adminIdentity(app: FastifyInstance): Promise<GatewayUser> {
  return app.deps.database.db
    .selectFrom('users_user')
    .select(['id', 'name', 'username'])
    .where('username', '=', 'admin')
    .executeTakeFirstOrThrow();
}

/** Opens a gateway session as `user` with the account on the asset, and waits for the shell's prompt. */
export async function openShell(
  app: FastifyInstance,
  o: { user: GatewayUser; assetId: string; accountId: string; loginFrom?: 'WT' | 'ST'; promptMs?: number },
) {
  const s = await gatewayOf(app).openSession({
    user: o.user,
    assetId: o.assetId,
    accountId: o.accountId,
    lang: 'en',
    loginFrom: o.loginFrom ?? 'WT',
    remoteAddr: '127.0.0.1',
  });
  const term = new TestTerminal(s.stream);
  await term.waitFor('gh$ ', 0, o.promptMs ?? 10000);
  return { s, term };
}

/** A new user invited into the admin's current org with `role` (an org role id), signed in. */
export async function signedInMember(
  t: TestApp,
  admin: SessionClient,
  username: string,
  role: string,
): Promise<{ client: SessionClient; id: string }> {
  const id = await createUser(t, username);
  const invited = await admin.post('/api/v1/users/users/invite/', { users: [id], org_roles: [role] });
  if (invited.statusCode >= 300) throw new Error(`invite ${username}: ${invited.statusCode} ${invited.body}`);
  const client = new SessionClient(t.app);
  const login = await client.login(username, USER_PASSWORD);
  if (!login.json().ok) throw new Error(`sign-in of ${username}: ${login.body}`);
  return { client, id };
}

/**
 * A command filter rule with `action` on one asset, for everyone and every account: its group
 * holds `content`; a review or warning rule's `reviewers` are user ids.
 */
export async function commandRule(
  admin: SessionClient,
  assetId: string,
  name: string,
  content: string,
  action = 'reject',
  reviewers: string[] = [],
): Promise<void> {
  const group = await admin.post('/api/v1/acls/command-groups/', { name: `${name}-group`, content });
  if (group.statusCode !== 201) throw new Error(`command group: ${group.body}`);
  const rule = await admin.post('/api/v1/acls/command-filter-acls/', {
    name,
    action,
    priority: 10,
    users: { type: 'all' },
    assets: { type: 'ids', ids: [assetId] },
    accounts: ['@ALL'],
    command_groups: [group.json().id],
    ...(reviewers.length ? { reviewers } : {}),
  });
  if (rule.statusCode !== 201) throw new Error(`command rule: ${rule.body}`);
}

/** An app whose asset is a real sshd behind a delay proxy, with a reject rule on one command. */
export interface ProxiedAsset {
  t: TestApp;
  admin: SessionClient;
  proxy: DelayProxy;
  target: SshHost;
  adminUser: GatewayUser;
  close(): Promise<void>;
}

/** Starts the sshd, its proxy (`delayMs` on what the sshd sends) and the app; `rejected` is refused. */
export async function proxiedAsset(delayMs: number, rule: { name: string; rejected: string }): Promise<ProxiedAsset> {
  const sshd = await startShellSshd();
  const proxy = await startDelayProxy(sshd.port, delayMs);
  const t = await createTestApp();
  const admin = await adminClient(t.app);
  const target = await hostWithAccounts(admin, { ...sshd, port: proxy.port });
  const adminUser = await adminIdentity(t.app);
  await commandRule(admin, target.host.id, rule.name, rule.rejected);
  return {
    t,
    admin,
    proxy,
    target,
    adminUser,
    close: async () => {
      await proxy.close();
      sshd.stop();
      await t.close();
    },
  };
}
