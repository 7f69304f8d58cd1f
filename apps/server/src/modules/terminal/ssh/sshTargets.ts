import type { FastifyInstance } from 'fastify';
import { ACTION_BITS } from '../../perms/actions.ts';
import { grantsPort } from '../../perms/grantsPort.ts';
import type { PermedAccount } from '../../perms/permedAccounts.ts';

/** What a native SSH user may reach: granted assets, and on one asset the accounts usable to connect. */
export interface GrantedAsset {
  id: string;
  name: string;
  address: string;
}

export async function grantedAssets(app: FastifyInstance, userId: string): Promise<GrantedAsset[]> {
  const { db, dialect } = app.deps.database;
  const ids = await grantsPort(db, dialect).grantedAssetIds(userId);
  if (!ids.length) return [];
  const rows = await db
    .selectFrom('assets_asset')
    .select(['id', 'name', 'address'])
    .where('id', 'in', ids)
    .where('is_active', '=', true)
    .orderBy('name')
    .execute();
  return rows;
}

/**
 * Accounts usable to connect: stored ones with a secret, and the virtual `@INPUT` / `@USER` whose
 * login the menu asks for (`@ANON` cannot log in over SSH).
 */
export async function connectableAccounts(
  app: FastifyInstance,
  userId: string,
  assetId: string,
): Promise<PermedAccount[]> {
  const { db, dialect } = app.deps.database;
  const all = await grantsPort(db, dialect).permedAccountsOf(userId, assetId);
  return all.filter(
    (a) =>
      (a.actions & ACTION_BITS.connect) !== 0 && (a.real ? a.has_secret : a.alias === '@INPUT' || a.alias === '@USER'),
  );
}

/** Assets whose name or address contains the text (case-insensitive); an exact name/address match alone wins. */
export function searchAssets(assets: GrantedAsset[], text: string): GrantedAsset[] {
  const q = text.toLowerCase();
  const exact = assets.filter((a) => a.name.toLowerCase() === q || a.address.toLowerCase() === q);
  if (exact.length) return exact;
  return assets.filter((a) => a.name.toLowerCase().includes(q) || a.address.toLowerCase().includes(q));
}

/** An account picked by its name, or else by its username. */
export function matchAccounts(accounts: PermedAccount[], text: string): PermedAccount[] {
  const byName = accounts.filter((a) => a.name === text);
  return byName.length ? byName : accounts.filter((a) => a.username === text);
}

/**
 * `<account>@<asset>` or `<asset>` (a name or address, exactly) among the user's grants, with the
 * one account usable to connect that fits; why not when none or several do.
 */
export async function findDirectTarget(
  app: FastifyInstance,
  userId: string,
  target: string,
): Promise<{ asset: GrantedAsset; account: PermedAccount } | 'not_found' | 'ambiguous'> {
  const at = target.lastIndexOf('@');
  const [accountText, assetText] = at < 0 ? ['', target] : [target.slice(0, at), target.slice(at + 1)];
  const assets = searchAssets(await grantedAssets(app, userId), assetText).filter(
    (a) => a.name === assetText || a.address === assetText,
  );
  if (assets.length !== 1) return 'not_found';
  const all = await connectableAccounts(app, userId, assets[0]!.id);
  const accounts = accountText ? matchAccounts(all, accountText) : all;
  if (!accounts.length) return 'not_found';
  if (accounts.length > 1) return 'ambiguous';
  return { asset: assets[0]!, account: accounts[0]! };
}
