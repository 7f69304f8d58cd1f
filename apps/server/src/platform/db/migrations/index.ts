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
import * as m0641 from './m0641_command_from_input.ts';
import * as m0700 from './m0700_command_search.ts';
import * as m0701 from './m0701_session_join_records.ts';
import * as m0750 from './m0750_logs_dashboard.ts';
import * as m0800 from './m0800_tickets.ts';
import * as m0910 from './m0910_user_language.ts';
import * as m0930 from './m0930_session_sharing.ts';
import * as m1000 from './m1000_ops_jobs.ts';
import * as m1010 from './m1010_playbooks.ts';
import * as m1090 from './m1090_shared_keys.ts';
import * as m1100 from './m1100_account_automations.ts';
import * as m1101 from './m1101_account_backup.ts';
import * as m1200 from './m1200_mail_outbox.ts';
import * as m1210 from './m1210_msg_subscription.ts';
import * as m1220 from './m1220_system_tasks.ts';
import * as m1250 from './m1250_terminal_storages.ts';
import * as m1251 from './m1251_interface_images.ts';
import * as m1252 from './m1252_command_storages.ts';
import * as m1400 from './m1400_cloud_sync.ts';
import * as m1600 from './m1600_applets.ts';
import * as m1650 from './m1650_backup_targets.ts';
import * as m1700 from './m1700_im_user_ids.ts';
import * as m1710 from './m1710_sealed_messages.ts';
import * as m1740 from './m1740_list_search.ts';

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
 *   1000-1009 the job centre (jobs, executions, ad-hoc commands).
 *   1010-1019 playbooks (Ansible workspaces).
 *   1090-1099 key material every instance shares (the native SSH host key).
 *   1100-1149 account automations (change secret, push, gather) and their records.
 *   1200-1249 messages (the mail outbox, system message subscriptions), Gatehouse's own tasks.
 *   1250-1299 terminal settings: replay and command storages, endpoints and rules, interface, applets.
 *   1400-1449 cloud sync (accounts, strategies, sync-instance tasks, their instances and records).
 *   1700-1749 sign-in through company messengers (WeCom, DingTalk, FeiShu) and SAML single logout.
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
  '0641_command_from_input': m0641,
  '0700_command_search': m0700,
  '0701_session_join_records': m0701,
  '0750_logs_dashboard': m0750,
  '0800_tickets': m0800,
  '0910_user_language': m0910,
  '0930_session_sharing': m0930,
  '1000_ops_jobs': m1000,
  '1010_playbooks': m1010,
  '1090_shared_keys': m1090,
  '1100_account_automations': m1100,
  '1101_account_backup': m1101,
  '1200_mail_outbox': m1200,
  '1210_msg_subscription': m1210,
  '1220_system_tasks': m1220,
  '1250_terminal_storages': m1250,
  '1251_interface_images': m1251,
  '1252_command_storages': m1252,
  '1400_cloud_sync': m1400,
  '1600_applets': m1600,
  '1650_backup_targets': m1650,
  '1700_im_user_ids': m1700,
  '1710_sealed_messages': m1710,
  '1740_list_search': m1740,
};
