import type { Bool } from '../schema.ts';

/** Accounts of assets, their secret history, account templates and virtual accounts (migration 0200). */
interface Audited {
  created_by: string;
  updated_by: string;
  date_created: string;
  date_updated: string;
}

export interface AccountTable extends Audited {
  id: string;
  name: string;
  username: string;
  /** password | ssh_key | access_key | token | api_key */
  secret_type: string;
  /** Sealed with the secret box (`gh1$…`), or null when there is none. */
  secret: string | null;
  /** Sealed passphrase of an encrypted SSH key. */
  passphrase: string | null;
  /** JSON object, e.g. `{"ssh_key_fingerprint": "SHA256:…"}`. */
  spec_info: string;
  privileged: Bool;
  is_active: Bool;
  asset_id: string;
  su_from_id: string | null;
  /** Secret version: 0 without a secret, +1 on every change. */
  version: number;
  /** local | collected | template */
  source: string;
  source_id: string | null;
  /** `-` unknown, `ok`, `err`. */
  connectivity: string;
  date_verified: string | null;
  /** JSON object (push parameters). */
  params: string;
  comment: string;
  org_id: string;
}

export interface AccountHistoryTable {
  id: string;
  account_id: string;
  version: number;
  secret_type: string;
  secret: string | null;
  passphrase: string | null;
  history_date: string;
  history_user: string;
}

export interface AccountTemplateTable extends Audited {
  id: string;
  name: string;
  username: string;
  secret_type: string;
  secret: string | null;
  passphrase: string | null;
  spec_info: string;
  privileged: Bool;
  is_active: Bool;
  /** specific | random */
  secret_strategy: string;
  /** JSON `{length, lowercase, uppercase, digit, symbol}`. */
  password_rules: string;
  auto_push: Bool;
  /** JSON object. */
  push_params: string;
  su_from_id: string | null;
  comment: string;
  org_id: string;
}

export interface AccountTemplatePlatformTable {
  id: string;
  accounttemplate_id: string;
  platform_id: number;
}

export interface VirtualAccountTable {
  id: string;
  /** @INPUT | @USER | @ANON */
  alias: string;
  secret_from_login: Bool | null;
  comment: string;
  org_id: string;
  date_created: string;
  date_updated: string;
}

export interface AccountTables {
  accounts_account: AccountTable;
  accounts_accounthistory: AccountHistoryTable;
  accounts_accounttemplate: AccountTemplateTable;
  accounts_accounttemplate_platforms: AccountTemplatePlatformTable;
  accounts_virtualaccount: VirtualAccountTable;
}
