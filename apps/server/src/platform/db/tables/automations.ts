import type { Bool } from '../schema.ts';

/** Account automations (migration 1100): plans, their asset and node links, per-account records. */
export interface AutomationsTables {
  accounts_automation: {
    id: string;
    name: string;
    /** change_secret | push_account | gather_accounts */
    type: string;
    is_periodic: Bool;
    interval: number;
    crontab: string;
    /** JSON list of usernames. */
    accounts: string;
    is_active: Bool;
    secret_type: string;
    /** specific | random */
    secret_strategy: string;
    /** Sealed with the secret box, or null. */
    secret: string | null;
    passphrase: string | null;
    /** JSON `{length, lowercase, uppercase, digit, symbol, symbol_set?}`. */
    password_rules: string;
    /** add | set | set_jms */
    ssh_key_change_strategy: string;
    /** JSON list of user ids. */
    recipients: string;
    /** JSON object. */
    params: string;
    is_sync_account: Bool;
    comment: string;
    created_by: string;
    updated_by: string;
    date_created: string;
    date_updated: string;
    org_id: string;
  };
  accounts_automation_assets: { id: string; automation_id: string; asset_id: string };
  accounts_automation_nodes: { id: string; automation_id: string; node_id: string };
  accounts_automationrecord: {
    id: string;
    type: string;
    execution_id: string;
    automation_id: string;
    asset_id: string;
    asset_name: string;
    account_id: string | null;
    account_name: string;
    username: string;
    /** pending | changed | success | failed */
    status: string;
    /** new | old | unknown | '' */
    state: string;
    secret_type: string;
    new_secret: string | null;
    new_passphrase: string | null;
    old_secret: string | null;
    old_passphrase: string | null;
    old_version: number;
    error: string;
    date_started: string;
    date_finished: string | null;
    org_id: string;
  };
  accounts_gatheredaccount: {
    id: string;
    asset_id: string;
    username: string;
    address_last_login: string;
    date_last_login: string | null;
    present: Bool;
    date_created: string;
    date_updated: string;
    org_id: string;
  };
  accounts_backupplan: {
    id: string;
    name: string;
    is_periodic: Bool;
    interval: number;
    crontab: string;
    /** JSON list of asset types (`linux`, `mysql`...) or categories (`host`, `database`...). */
    types: string;
    /** JSON lists of user ids: each part receives one half of the file's password. */
    recipients_part_one: string;
    recipients_part_two: string;
    /** `email` (the parts' recipients get the file and their half) or `object_storage` (SFTP storages). */
    backup_type: string;
    /** JSON lists of SFTP replay storage ids: each part's get the file and that part's half. */
    obj_recipients_part_one: string;
    obj_recipients_part_two: string;
    comment: string;
    created_by: string;
    updated_by: string;
    date_created: string;
    date_updated: string;
    org_id: string;
  };
}
