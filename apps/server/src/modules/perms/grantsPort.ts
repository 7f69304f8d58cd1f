import type { Kysely } from 'kysely';
import type { Dialect } from '../../platform/db/database.ts';
import type { DB } from '../../platform/db/schema.ts';
import { grantedAssetIds, isAssetGranted, loadGrant } from './grants.ts';
import { permedAccountsOf, type PermedAccount } from './permedAccounts.ts';

/**
 * What other modules (the gateway, connection tokens, tickets) ask of grants, on a database handle:
 * always computed from the current rows, so a revoked grant is refused on the next connection.
 */
export interface GrantsPort {
  /** The accounts the user may use on the asset now (empty when the asset is not granted). */
  permedAccountsOf(userId: string, assetId: string, opts?: { orgId?: string }): Promise<PermedAccount[]>;
  /** Ids of the assets granted to the user now (in one org, or all). */
  grantedAssetIds(userId: string, opts?: { orgId?: string }): Promise<string[]>;
  isAssetGranted(userId: string, assetId: string): Promise<boolean>;
}

export function grantsPort(db: Kysely<DB>, dialect: Dialect): GrantsPort {
  const g = { db, dialect };
  return {
    permedAccountsOf: (userId, assetId, opts = {}) => permedAccountsOf(g, userId, assetId, opts),
    async grantedAssetIds(userId, opts = {}) {
      const grant = await loadGrant(g, { userId, ...opts });
      return (await grantedAssetIds(g, grant).execute()).map((r) => r.asset_id);
    },
    async isAssetGranted(userId, assetId) {
      return isAssetGranted(g, await loadGrant(g, { userId }), assetId);
    },
  };
}
