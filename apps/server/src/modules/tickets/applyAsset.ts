import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Language } from '@gatehouse/contract';
import type { DB } from '../../platform/db/schema.ts';
import type { SettingsStore } from '../settings/store.ts';
import { ALL_ACTIONS, parseActions } from '../perms/actions.ts';
import { km } from './ticketMessages.ts';
import type { TicketRow } from './ticketStore.ts';

/**
 * Asking for assets: the request's fields (`apply_*`), checked against the ticket's org, with the
 * dates defaulting to now and now + `TICKET_AUTHORIZE_DEFAULT_TIME` `TICKET_AUTHORIZE_DEFAULT_TIME_UNIT`;
 * and the asset permission its final approval creates (named as the contract says, `from_ticket`).
 */
type Errors = Record<string, string[]>;
type Named = { id: string; name: string };
export interface ApplyAssetMeta {
  apply_nodes: Named[];
  apply_assets: Named[];
  apply_accounts: string[];
  apply_actions: number;
  apply_date_start: string;
  apply_date_expired: string;
  apply_permission_name: string;
}

const idsOf = (v: unknown): string[] | undefined =>
  Array.isArray(v)
    ? v.map((x) => (x && typeof x === 'object' ? String((x as { id?: unknown }).id ?? '') : String(x)))
    : undefined;

function dateOf(v: unknown): string | undefined {
  if (typeof v !== 'string' || !v.trim()) return undefined;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

async function defaultExpiry(settings: SettingsStore, start: string): Promise<string> {
  const n = Number(await settings.get('TICKET_AUTHORIZE_DEFAULT_TIME')) || 7;
  const unit = String(await settings.get('TICKET_AUTHORIZE_DEFAULT_TIME_UNIT'));
  return new Date(Date.parse(start) + n * (unit === 'hour' ? 3600e3 : 86400e3)).toISOString();
}

/**
 * The request's fields from `body` over `base` (the stored request when an approver edits it):
 * either the meta to store or field errors in `lang`.
 */
export async function parseApplyAsset(
  db: Kysely<DB>,
  settings: SettingsStore,
  orgId: string,
  body: Record<string, unknown>,
  lang: Language,
  base?: ApplyAssetMeta,
): Promise<{ meta: ApplyAssetMeta } | { errors: Errors }> {
  const errors: Errors = {};
  const has = (k: string) => body[k] !== undefined;
  const nodeIds = has('apply_nodes') ? idsOf(body.apply_nodes) : (base?.apply_nodes.map((n) => n.id) ?? []);
  const assetIds = has('apply_assets') ? idsOf(body.apply_assets) : (base?.apply_assets.map((n) => n.id) ?? []);
  if (!nodeIds) errors.apply_nodes = [km(lang, 'apply_empty')];
  if (!assetIds) errors.apply_assets = [km(lang, 'apply_empty')];
  const nodes = nodeIds?.length
    ? await db
        .selectFrom('assets_node')
        .select(['id', 'value as name'])
        .where('id', 'in', nodeIds)
        .where('org_id', '=', orgId)
        .execute()
    : [];
  const assets = assetIds?.length
    ? await db
        .selectFrom('assets_asset')
        .select(['id', 'name'])
        .where('id', 'in', assetIds)
        .where('org_id', '=', orgId)
        .execute()
    : [];
  const missingNode = nodeIds?.find((id) => !nodes.some((n) => n.id === id));
  if (missingNode !== undefined)
    errors.apply_nodes = [km(lang, 'apply_unknown', { id: missingNode, kind: km(lang, 'kind_node') })];
  const missingAsset = assetIds?.find((id) => !assets.some((a) => a.id === id));
  if (missingAsset !== undefined)
    errors.apply_assets = [km(lang, 'apply_unknown', { id: missingAsset, kind: km(lang, 'kind_asset') })];
  if (nodeIds && assetIds && !nodeIds.length && !assetIds.length) errors.apply_assets = [km(lang, 'apply_empty')];

  let accounts = base?.apply_accounts ?? ['@ALL'];
  if (has('apply_accounts')) {
    const v = body.apply_accounts;
    if (!Array.isArray(v) || !v.length || v.some((x) => typeof x !== 'string' || !x.trim() || x.length > 128))
      errors.apply_accounts = [km(lang, 'accounts_invalid')];
    else accounts = [...new Set(v.map((x: string) => x.trim()))];
  }
  let actions = base?.apply_actions ?? ALL_ACTIONS;
  if (has('apply_actions')) {
    const parsed = parseActions(body.apply_actions);
    if ('bad' in parsed) errors.apply_actions = [km(lang, 'actions_invalid', { name: parsed.bad })];
    else actions = parsed.mask;
  }
  let start = base?.apply_date_start ?? new Date().toISOString();
  if (has('apply_date_start')) {
    const d = dateOf(body.apply_date_start);
    if (!d) errors.apply_date_start = [km(lang, 'date_invalid')];
    else start = d;
  }
  let expired = base?.apply_date_expired;
  if (has('apply_date_expired')) {
    expired = dateOf(body.apply_date_expired);
    if (!expired) errors.apply_date_expired = [km(lang, 'date_invalid')];
  }
  expired ??= await defaultExpiry(settings, start);
  if (!errors.apply_date_start && !errors.apply_date_expired && Date.parse(expired) <= Date.parse(start))
    errors.apply_date_expired = [km(lang, 'date_order')];
  if (Object.keys(errors).length) return { errors };
  const order = <T extends Named>(ids: string[], rows: T[]) => ids.map((id) => rows.find((r) => r.id === id)!);
  return {
    meta: {
      apply_nodes: order(nodeIds!, nodes),
      apply_assets: order(assetIds!, assets),
      apply_accounts: accounts,
      apply_actions: actions,
      apply_date_start: start,
      apply_date_expired: expired,
      apply_permission_name: base?.apply_permission_name ?? '',
    },
  };
}

/** The permission the final approval creates: exactly the request, for the applicant only. */
export async function grantFromTicket(
  tx: Kysely<DB>,
  ticket: TicketRow,
  meta: ApplyAssetMeta,
  processor: string,
): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await tx
    .insertInto('perms_assetpermission')
    .values({
      id,
      name: meta.apply_permission_name,
      accounts: JSON.stringify(meta.apply_accounts),
      actions: meta.apply_actions,
      date_start: meta.apply_date_start,
      date_expired: meta.apply_date_expired,
      is_active: true,
      from_ticket: true,
      comment: '',
      expire_notified: null,
      created_by: processor,
      updated_by: processor,
      date_created: now,
      date_updated: now,
      org_id: ticket.org_id,
    })
    .execute();
  if (ticket.applicant_id)
    await tx
      .insertInto('perms_assetpermission_users')
      .values({ id: randomUUID(), assetpermission_id: id, user_id: ticket.applicant_id })
      .execute();
  for (const n of meta.apply_nodes)
    await tx
      .insertInto('perms_assetpermission_nodes')
      .values({ id: randomUUID(), assetpermission_id: id, node_id: n.id })
      .execute();
  for (const a of meta.apply_assets)
    await tx
      .insertInto('perms_assetpermission_assets')
      .values({ id: randomUUID(), assetpermission_id: id, asset_id: a.id })
      .execute();
  return id;
}
