import { ApiError } from '../../http/errors.ts';
import { serializeRows } from '../../resource/serialize.ts';
import { validateObject, type FieldErrors } from '../../resource/validate.ts';
import { createObject } from '../../resource/write.ts';
import type { ResourceCtx, Row } from '../../resource/types.ts';
import { markSecretWritten, resolveDuplicate } from './accountHooks.ts';
import { accountResource } from './accountResource.ts';

/**
 * Accounts carried by an asset create or update (`accounts`): created in the
 * asset's transaction, so a bad account refuses the asset too (400 `{"accounts": [per item]}`).
 * An item with `id` copies that account's secret (same org).
 */
export async function createAssetAccounts(ctx: ResourceCtx, assetId: string, items: Row[]): Promise<void> {
  const errors: FieldErrors[] = [];
  const ready: Row[] = [];
  for (const item of items) {
    const { id, ...rest } = item;
    let source: Row | undefined;
    if (id) {
      source = await ctx.db
        .selectFrom('accounts_account')
        .selectAll()
        .where('id', '=', String(id))
        .where('org_id', '=', ctx.req.org.id)
        .executeTakeFirst();
      if (source) {
        rest.username ??= source.username;
        rest.secret_type ??= source.secret_type;
        rest.privileged ??= source.privileged;
      }
    }
    const r = await validateObject(accountResource, ctx, { on_invalid: 'error', ...rest, asset: assetId }, 'create');
    if (!r.ok) {
      errors.push(r.errors);
      continue;
    }
    errors.push({});
    if (source?.secret && r.data.secret === null) {
      Object.assign(r.data, {
        secret: source.secret,
        passphrase: source.passphrase,
        spec_info: source.spec_info,
        version: 1,
      });
      markSecretWritten(r.data);
    }
    ready.push(r.data);
  }
  if (errors.some((e) => Object.keys(e).length)) throw new ApiError(400, { accounts: errors });
  for (const data of ready)
    if (!(await resolveDuplicate(accountResource, data, ctx))) await createObject(accountResource, ctx, data);
}

/** The accounts of one asset as the asset detail shows them (no secrets). */
export async function accountsOfAsset(ctx: ResourceCtx, assetId: string): Promise<Row[]> {
  const rows = (await ctx.db
    .selectFrom('accounts_account')
    .selectAll()
    .where('asset_id', '=', assetId)
    .orderBy('name')
    .execute()) as Row[];
  return serializeRows(accountResource, ctx, rows, [
    'id',
    'name',
    'username',
    'secret_type',
    'privileged',
    'is_active',
    'version',
    'source',
    'connectivity',
    'has_secret',
    'su_from',
    'date_updated',
  ]);
}
