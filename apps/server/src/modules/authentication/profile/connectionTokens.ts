import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { AppDeps } from '../../../http/context.ts';
import { toBool, type DB } from '../../../platform/db/schema.ts';
import { shape } from '../../../resource/describe.ts';

/**
 * Connection tokens (`authentication_connectiontoken`): the short-lived ticket a user makes to
 * connect to an asset through a terminal component. The gateway creates them (with
 * `insertConnectionToken`); the profile lists the user's own, expires them and switches reuse.
 * `input_secret` is sealed with the secret box and never leaves through these routes.
 */
type Row = Selectable<DB['authentication_connectiontoken']>;

export interface NewConnectionToken {
  userId: string;
  userDisplay: string;
  orgId: string;
  assetId?: string | null;
  assetDisplay?: string;
  account?: string;
  inputUsername?: string;
  inputSecret?: string;
  protocol?: string;
  connectMethod?: string;
  connectOptions?: Record<string, unknown>;
  isReusable?: boolean;
  isActive?: boolean;
  /** Seconds from now; CONNECTION_TOKEN_ONETIME_EXPIRATION by the caller's choice. */
  ttlSeconds: number;
  createdBy?: string;
}

export async function insertConnectionToken(deps: AppDeps, db: Kysely<DB>, input: NewConnectionToken): Promise<Row> {
  const now = new Date();
  const row = {
    id: randomUUID(),
    value: randomBytes(12).toString('base64url').slice(0, 16),
    user_id: input.userId,
    user_display: input.userDisplay,
    asset_id: input.assetId ?? null,
    asset_display: input.assetDisplay ?? '',
    account: input.account ?? '',
    input_username: input.inputUsername ?? '',
    input_secret: input.inputSecret ? deps.secretBox.encrypt(input.inputSecret) : '',
    protocol: input.protocol ?? 'ssh',
    connect_method: input.connectMethod ?? 'web_cli',
    connect_options: JSON.stringify({ file_name_conflict_resolution: 'replace', ...input.connectOptions }),
    is_reusable: input.isReusable ?? false,
    is_active: input.isActive ?? true,
    from_ticket_id: null,
    org_id: input.orgId,
    created_by: input.createdBy ?? input.userDisplay,
    updated_by: input.createdBy ?? input.userDisplay,
    date_expired: new Date(now.getTime() + input.ttlSeconds * 1000).toISOString(),
    date_created: now.toISOString(),
    date_updated: now.toISOString(),
  };
  await db.insertInto('authentication_connectiontoken').values(row).execute();
  return row;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

/** The contract's token payload (without the sealed secret). */
/** What `connectionTokenOut` answers, for OPTIONS (resource/describe.ts). */
export const CONNECTION_TOKEN = shape('connection_token', {
  id: 'string',
  value: 'string',
  user: 'object_related_field',
  asset: 'object_related_field',
  account: 'string',
  input_username: 'string',
  connect_method: 'string',
  connect_options: 'json',
  protocol: 'string',
  actions: 'list',
  is_active: 'boolean',
  is_reusable: 'boolean',
  from_ticket: 'string',
  date_expired: 'datetime',
  date_created: 'datetime',
  date_updated: 'datetime',
  created_by: 'string',
  updated_by: 'string',
  expire_time: 'integer',
  is_expired: 'boolean',
});

export function connectionTokenOut(row: Row & { org_name: string | null }, now = Date.now()) {
  const left = Math.max(0, Math.floor((Date.parse(row.date_expired) - now) / 1000));
  return {
    id: row.id,
    value: row.value,
    user: { id: row.user_id, name: row.user_display },
    asset: row.asset_id ? { id: row.asset_id, name: row.asset_display } : null,
    account: row.account,
    input_username: row.input_username,
    connect_method: row.connect_method,
    connect_options: parseJson(row.connect_options),
    protocol: row.protocol,
    actions: [] as string[],
    is_active: toBool(row.is_active),
    is_reusable: toBool(row.is_reusable),
    from_ticket: row.from_ticket_id,
    from_ticket_info: null,
    date_expired: row.date_expired,
    date_created: row.date_created,
    date_updated: row.date_updated,
    created_by: row.created_by,
    updated_by: row.updated_by,
    org_id: row.org_id,
    org_name: row.org_name ?? '',
    expire_time: left,
    is_expired: left <= 0,
    user_display: row.user_display,
    asset_display: row.asset_display,
  };
}
