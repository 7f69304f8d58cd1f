import type { Kysely } from 'kysely';
import type { Language } from '@gatehouse/contract';
import type { DB } from '../../../platform/db/schema.ts';
import { toBool } from '../../../platform/db/schema.ts';
import type { SecretBox } from '../../../platform/crypto/secretBox.ts';
import { targetOf } from '../../assets/connectivity.ts';
import { GatewayError } from './gatewayError.ts';

/**
 * Where a session goes and with which secret: the asset's address and SSH port, the account's
 * password or key (+ passphrase) from the vault, the domain's gateway when the asset has a
 * domain, and the `su` step when the account is switched to from another account. Secrets are
 * unsealed here and go only to the SSH client.
 */
export interface SshCredentials {
  username: string;
  password?: string;
  privateKey?: string;
  passphrase?: string;
}

export interface Hop {
  assetId: string;
  /** The name of the account it logs in with (shown to a component: tokenSecretPayload.ts). */
  accountName?: string;
  host: string;
  port: number;
  credentials: SshCredentials;
}

export interface SuStep {
  /** The command that switches (from the platform's `su_method`). */
  command: string;
  /** What answers its password prompt: the target's password for su, the login account's for sudo. */
  password: string;
  username: string;
}

/** The platform's `su_method` as a command (`sudo`: `sudo su -`, the original's default for hosts). */
export function suCommand(method: string, username: string): string {
  if (method === 'sudo') return `sudo su - ${username}`;
  if (method === 'enable') return 'enable';
  if (method === 'super') return 'super 15';
  if (method === 'super_level') return 'super level 15';
  return `su - ${username}`;
}

export interface ResolvedTarget {
  target: Hop;
  gateway?: Hop;
  su?: SuStep;
  orgId: string;
  display: { asset: string; account: string };
}

type AccountRow = DB['accounts_account'];

/**
 * What the user typed (or the connection token carries) for a virtual account: `@INPUT` (username
 * and password), `@USER` (the user's username; the password typed when no namesake is stored).
 * For a stored account it is the fallback when the vault holds no usable secret.
 */
export interface TypedLogin {
  /** How the account shows in the session's record (`Manual input`, `Same with user`). */
  name: string;
  username: string;
  password: string;
}

function credentialsOf(box: SecretBox, a: AccountRow, lang: Language): SshCredentials {
  const secret = a.secret ? box.decrypt(a.secret) : '';
  if (!secret || (a.secret_type !== 'password' && a.secret_type !== 'ssh_key'))
    throw new GatewayError('no_secret', lang, { account: `${a.name}(${a.username})` });
  if (a.secret_type === 'password') return { username: a.username, password: secret };
  return {
    username: a.username,
    privateKey: secret,
    ...(a.passphrase ? { passphrase: box.decrypt(a.passphrase) } : {}),
  };
}

async function sshPort(db: Kysely<DB>, assetId: string): Promise<number | undefined> {
  const p = await db
    .selectFrom('assets_protocol')
    .select('port')
    .where('asset_id', '=', assetId)
    .where('name', '=', 'ssh')
    .executeTakeFirst();
  return p ? Number(p.port) : undefined;
}

/** The first active gateway (by name) of the domain that has an SSH port and an account with a usable secret. */
export async function gatewayOf(
  db: Kysely<DB>,
  box: SecretBox,
  domainId: string,
  lang: Language,
): Promise<Hop | undefined> {
  const gateways = await db
    .selectFrom('assets_asset as a')
    .innerJoin('assets_platform as p', 'p.id', 'a.platform_id')
    .select(['a.id', 'a.address'])
    .where('a.domain_id', '=', domainId)
    // Gateways are the hosts of the Gateway platform (modules/assets/assetResource.ts).
    .where('p.name', '=', 'Gateway')
    .where('a.is_active', '=', true)
    .orderBy('a.name')
    .execute();
  for (const g of gateways) {
    const port = await sshPort(db, g.id);
    if (!port) continue;
    const accounts = await db
      .selectFrom('accounts_account')
      .selectAll()
      .where('asset_id', '=', g.id)
      .where('is_active', '=', true)
      .where('secret_type', 'in', ['password', 'ssh_key'])
      .where('secret', 'is not', null)
      .orderBy('privileged', 'desc')
      .orderBy('name')
      .execute();
    if (!accounts[0]) continue;
    const t = targetOf(g.address, { name: 'ssh', port });
    const credentials = credentialsOf(box, accounts[0], lang);
    return { assetId: g.id, accountName: accounts[0].name, host: t.host, port: t.port, credentials };
  }
  return undefined;
}

const usable = (a: AccountRow) => Boolean(a.secret) && (a.secret_type === 'password' || a.secret_type === 'ssh_key');

/** The domain's gateway for an asset of that domain; none usable refuses (`no_gateway`). */
export async function domainGateway(db: Kysely<DB>, box: SecretBox, domainId: string, asset: string, lang: Language) {
  const gateway = await gatewayOf(db, box, domainId, lang);
  if (!gateway) throw new GatewayError('no_gateway', lang, { asset });
  return gateway;
}

export async function resolveTarget(
  db: Kysely<DB>,
  box: SecretBox,
  lang: Language,
  assetId: string,
  accountId: string,
  typed?: TypedLogin,
): Promise<ResolvedTarget> {
  const asset = await db
    .selectFrom('assets_asset as a')
    .innerJoin('assets_platform as p', 'p.id', 'a.platform_id')
    .select(['a.id', 'a.name', 'a.address', 'a.domain_id', 'a.org_id', 'p.su_enabled', 'p.su_method'])
    .where('a.id', '=', assetId)
    .executeTakeFirstOrThrow();
  const account = await db
    .selectFrom('accounts_account')
    .selectAll()
    .where('id', '=', accountId)
    .where('asset_id', '=', assetId)
    .executeTakeFirst();
  if (!account && !typed) throw new GatewayError('no_secret', lang, { account: accountId });
  const port = await sshPort(db, asset.id);
  if (!port) throw new GatewayError('no_ssh_protocol', lang, { asset: asset.name });
  const t = targetOf(asset.address, { name: 'ssh', port });
  let credentials: SshCredentials;
  let su: SuStep | undefined;
  if (!account || (typed?.password && !usable(account))) {
    // A virtual account, or a stored one without a usable secret: what was typed.
    const username = account?.username ?? typed!.username;
    return {
      target: { assetId: asset.id, host: t.host, port: t.port, credentials: { username, password: typed!.password } },
      ...(asset.domain_id ? { gateway: await domainGateway(db, box, asset.domain_id, asset.name, lang) } : {}),
      orgId: asset.org_id,
      display: {
        asset: `${asset.name}(${asset.address})`,
        account: `${account?.name ?? typed!.name}(${username})`,
      },
    };
  }
  if (account.su_from_id && toBool(asset.su_enabled)) {
    // Log in as the account switched from, then `su` to this one with this one's password.
    const from = await db
      .selectFrom('accounts_account')
      .selectAll()
      .where('id', '=', account.su_from_id)
      .executeTakeFirstOrThrow();
    credentials = credentialsOf(box, from, lang);
    const method = asset.su_method || 'su';
    const answer = method === 'sudo' ? credentials : credentialsOf(box, account, lang);
    if (answer.password === undefined)
      throw new GatewayError('no_secret', lang, { account: `${account.name}(${account.username})` });
    su = { command: suCommand(method, account.username), username: account.username, password: answer.password };
  } else credentials = credentialsOf(box, account, lang);
  const gateway = asset.domain_id ? await domainGateway(db, box, asset.domain_id, asset.name, lang) : undefined;
  return {
    target: { assetId: asset.id, host: t.host, port: t.port, credentials },
    ...(gateway ? { gateway } : {}),
    ...(su ? { su } : {}),
    orgId: asset.org_id,
    display: { asset: `${asset.name}(${asset.address})`, account: `${account.name}(${account.username})` },
  };
}
