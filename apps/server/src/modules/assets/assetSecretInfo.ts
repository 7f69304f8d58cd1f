import type { CategoryValue } from '@gatehouse/contract';
import { CATEGORY_FIELDS } from './assetFields.ts';

/**
 * An asset's `secret_info` as a terminal component receives it with a connection token: the
 * write-only fields of its category (a database's `ca_cert`, `client_cert`, `client_key`), which
 * the asset API never shows. Other categories have none: `{}`.
 */
export function assetSecretInfo(asset: { category: string }): Record<string, string> {
  const fields = CATEGORY_FIELDS[asset.category as CategoryValue] ?? {};
  const row = asset as unknown as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const [name, def] of Object.entries(fields)) if (def.writeOnly) out[name] = String(row[name] ?? '');
  return out;
}
