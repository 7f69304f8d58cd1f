import type { Migration } from 'kysely';
import * as m0001 from './m0001_init.ts';
import * as m0002 from './m0002_groups_audit.ts';
import * as m0003 from './m0003_binding_org_index.ts';
import * as m0010 from './m0010_user_login_log.ts';
import * as m0050 from './m0050_mfa_messages.ts';
import * as m0150 from './m0150_assets.ts';
import * as m0151 from './m0151_builtin_platforms.ts';
import * as m0200 from './m0200_accounts.ts';
import * as m0300 from './m0300_acls.ts';
import * as m0400 from './m0400_perms.ts';
import * as m0450 from './m0450_profile_credentials.ts';
import * as m0600 from './m0600_terminal.ts';
import * as m0640 from './m0640_user_public_key.ts';
import * as m0700 from './m0700_command_search.ts';
import * as m0701 from './m0701_session_join_records.ts';
import * as m0750 from './m0750_logs_dashboard.ts';
import * as m0800 from './m0800_tickets.ts';
import * as m0910 from './m0910_user_language.ts';
import * as m0930 from './m0930_session_sharing.ts';

/**
 * Every migration, in order of name; never rename or edit one that has shipped.
 * Name ranges per area, so work in parallel never collides:
 *   0001-0049 core, resources, users, audits · 0050-0099 authentication, MFA, notifications ·
 *   0100-0149 rbac, orgs, licence · 0150-0199 assets · 0200-0249 accounts · 0300-0349 access-control rules ·
 *   0400-0449 asset permissions.
 *   0450-0499 profile credentials, preferences, connection tokens.
 *   0600-0649 the gateway (terminal sessions, commands, transfers).
 *   0700-0739 session audit (command search index, join records).
 *   0750-0789 the logs and dashboards.
 *   0800-0839 tickets and approval flows.
 *   0910-0919 the users' stored language.
 *   0930-0939 session sharing.
 */
export const MIGRATIONS: Record<string, Migration> = {
  '0001_init': m0001,
  '0002_groups_audit': m0002,
  '0003_binding_org_index': m0003,
  '0010_user_login_log': m0010,
  '0050_mfa_messages': m0050,
  '0150_assets': m0150,
  '0151_builtin_platforms': m0151,
  '0200_accounts': m0200,
  '0300_acls': m0300,
  '0400_perms': m0400,
  '0450_profile_credentials': m0450,
  '0600_terminal': m0600,
  '0640_user_public_key': m0640,
  '0700_command_search': m0700,
  '0701_session_join_records': m0701,
  '0750_logs_dashboard': m0750,
  '0800_tickets': m0800,
  '0910_user_language': m0910,
  '0930_session_sharing': m0930,
};
