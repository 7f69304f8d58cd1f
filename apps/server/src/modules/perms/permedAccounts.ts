import { randomUUID } from 'node:crypto';
import { nowIso, permsCoveringAsset, type GrantDb } from './grants.ts';

/**
 * The accounts a user may use on an asset, from every valid permission covering the user (directly
 * or through a group) and the asset (directly or through an ancestor node):
 * `@ALL` → every active account of the asset; a username (or `%<template id>`, the template's
 * username) → the active accounts with that username; `@USER` → the account named like the user,
 * else a virtual one; `@INPUT` / `@ANON` → virtual accounts. Actions are OR-ed over the
 * permissions that grant an account, and its expiry is the latest of theirs.
 */
export const VIRTUAL_ALIASES = ['@INPUT', '@USER', '@ANON'] as const;
export type VirtualAlias = (typeof VIRTUAL_ALIASES)[number];

export interface PermedAccount {
  /** The account's id; a random id per call for virtual accounts (identify those by alias). */
  id: string;
  alias: string;
  name: string;
  username: string;
  has_username: boolean;
  has_secret: boolean;
  secret_type: string;
  actions: number;
  date_expired: string;
  /** Whether this is a stored account (false: `@INPUT`, `@USER` without a namesake, `@ANON`). */
  real: boolean;
}

function parseList(raw: string): string[] {
  try {
    const v = JSON.parse(raw) as unknown;
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

export async function permedAccountsOf(
  g: GrantDb,
  userId: string,
  assetId: string,
  opts: { orgId?: string; now?: string; virtualName?: (alias: VirtualAlias) => string } = {},
): Promise<PermedAccount[]> {
  const now = opts.now ?? nowIso();
  const perms = await permsCoveringAsset(g, { userId, ...(opts.orgId ? { orgId: opts.orgId } : {}) }, assetId, now);
  if (!perms.length) return [];
  const user = await g.db.selectFrom('users_user').select('username').where('id', '=', userId).executeTakeFirst();
  const lists = perms.map((p) => parseList(p.accounts));
  const templateIds = [...new Set(lists.flat().filter((a) => a.startsWith('%')))].map((a) => a.slice(1));
  const templates = new Map(
    templateIds.length
      ? (
          await g.db
            .selectFrom('accounts_accounttemplate')
            .select(['id', 'username'])
            .where('id', 'in', templateIds)
            .execute()
        ).map((t) => [t.id, t.username])
      : [],
  );
  const accounts = await g.db
    .selectFrom('accounts_account')
    .select(['id', 'name', 'username', 'secret', 'secret_type'])
    .where('asset_id', '=', assetId)
    .where('is_active', '=', true)
    .orderBy('name')
    .execute();
  const granted = new Map<string, { actions: number; expired: string }>();
  const grant = (key: string, actions: number, expired: string) => {
    const had = granted.get(key);
    granted.set(key, {
      actions: (had?.actions ?? 0) | actions,
      expired: had && had.expired > expired ? had.expired : expired,
    });
  };
  perms.forEach((p, i) => {
    const actions = Number(p.actions);
    for (const item of lists[i]!) {
      if (item === '@ALL') for (const a of accounts) grant(a.id, actions, p.date_expired);
      else if (item === '@USER') {
        const same = accounts.filter((a) => user && a.username === user.username);
        if (same.length) for (const a of same) grant(a.id, actions, p.date_expired);
        else grant('@USER', actions, p.date_expired);
      } else if (item === '@INPUT' || item === '@ANON') grant(item, actions, p.date_expired);
      else {
        const username = item.startsWith('%') ? templates.get(item.slice(1)) : item;
        if (username === undefined) continue;
        for (const a of accounts) if (a.username === username) grant(a.id, actions, p.date_expired);
      }
    }
  });
  const out: PermedAccount[] = [];
  for (const a of accounts) {
    const got = granted.get(a.id);
    if (!got) continue;
    out.push({
      id: a.id,
      alias: a.name,
      name: a.name,
      username: a.username,
      has_username: Boolean(a.username),
      has_secret: Boolean(a.secret),
      secret_type: a.secret_type,
      actions: got.actions,
      date_expired: got.expired,
      real: true,
    });
  }
  for (const alias of VIRTUAL_ALIASES) {
    const got = granted.get(alias);
    if (!got) continue;
    const username = alias === '@USER' ? (user?.username ?? '') : alias;
    out.push({
      id: randomUUID(),
      alias,
      name: opts.virtualName?.(alias) ?? alias,
      username,
      has_username: alias === '@USER',
      has_secret: false,
      secret_type: 'password',
      actions: got.actions,
      date_expired: got.expired,
      real: false,
    });
  }
  return out;
}
