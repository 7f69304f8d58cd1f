import type { Language } from '@gatehouse/contract';
import { actionsOut } from '../perms/actions.ts';
import type { TicketType } from './stateMachine.ts';

/**
 * The fields each ticket type adds (contract: `apply-asset-tickets/` apply_*, `apply-login-tickets/`
 * apply_login_*, `apply-login-asset-tickets/`, `apply-command-tickets/` apply_run_*), stored as the
 * ticket's `meta` JSON with names captured when the ticket was written (a record outlives them).
 */
const FIELDS: Record<TicketType, string[]> = {
  general: [],
  apply_asset: [
    'apply_nodes',
    'apply_assets',
    'apply_accounts',
    'apply_actions',
    'apply_date_start',
    'apply_date_expired',
    'apply_permission_name',
  ],
  login_confirm: ['apply_login_ip', 'apply_login_city', 'apply_login_datetime'],
  login_asset_confirm: ['apply_login_user', 'apply_login_asset', 'apply_login_account'],
  command_confirm: [
    'apply_run_user',
    'apply_run_asset',
    'apply_run_account',
    'apply_run_command',
    'apply_from_session',
    'apply_from_cmd_filter_acl',
  ],
};

export function metaOut(type: TicketType, meta: Record<string, unknown>, lang: Language): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of FIELDS[type] ?? []) out[k] = meta[k] ?? null;
  if (type === 'apply_asset') out.apply_actions = actionsOut(Number(meta.apply_actions ?? 0), lang);
  return out;
}
