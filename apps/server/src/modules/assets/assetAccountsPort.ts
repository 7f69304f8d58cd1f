import type { FastifyInstance } from 'fastify';
import type { ResourceCtx, Row } from '../../resource/types.ts';

/**
 * How an asset write reaches the accounts it carries (`accounts` in a create or update, and in the
 * detail answer). The accounts module sits above assets (MODULE_ORDER in eslint.layers.js) and
 * provides this at registration, so assets never imports it.
 */
export interface AssetAccountsPort {
  /** Creates the accounts in the write's transaction (`ctx.db`); throws a 400 naming what is wrong. */
  create(ctx: ResourceCtx, assetId: string, accounts: Row[]): Promise<void>;
  /** The asset's accounts, without secrets. */
  ofAsset(ctx: ResourceCtx, assetId: string): Promise<Row[]>;
}

const ports = new WeakMap<FastifyInstance, AssetAccountsPort>();

export function provideAssetAccounts(app: FastifyInstance, port: AssetAccountsPort): void {
  ports.set(app, port);
}

export function assetAccounts(ctx: ResourceCtx): AssetAccountsPort | undefined {
  return ports.get(ctx.req.server);
}
