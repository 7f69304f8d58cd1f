import type { CategoryValue } from '@gatehouse/contract';
import { toBool } from '../../platform/db/schema.ts';
import type { FieldDef } from '../../resource/types.ts';
import { CATEGORY_FIELDS } from './assetFields.ts';

/**
 * An asset's category fields as a terminal component receives them with a connection token:
 * `secret_info` the write-only ones (a database's `ca_cert`, `client_cert`, `client_key`, which the
 * asset API never shows), `spec_info` the other writable ones (a database's `db_name`, `use_ssl`,
 * `allow_invalid_cert`; a website's autofill settings), stored values as they are. A category
 * without such fields (hosts) gives `{}`.
 */
type Json = Record<string, unknown>;

function valueOf(def: FieldDef, raw: unknown): unknown {
  if (def.type === 'boolean') return toBool(raw as never);
  if (def.type === 'json') {
    try {
      return typeof raw === 'string' ? (JSON.parse(raw) as unknown) : (raw ?? null);
    } catch {
      return raw;
    }
  }
  return raw ?? '';
}

function pick(asset: { category: string }, want: (def: FieldDef) => boolean): Json {
  const fields = CATEGORY_FIELDS[asset.category as CategoryValue] ?? {};
  const row = asset as unknown as Json;
  const out: Json = {};
  for (const [name, def] of Object.entries(fields)) if (want(def)) out[name] = valueOf(def, row[name]);
  return out;
}

export function assetSecretInfo(asset: { category: string }): Json {
  return pick(asset, (def) => Boolean(def.writeOnly));
}

export function assetSpecInfo(asset: { category: string }): Json {
  return pick(asset, (def) => !def.writeOnly && !def.readOnly);
}
