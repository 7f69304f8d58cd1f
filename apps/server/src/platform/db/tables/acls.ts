import type { Bool } from '../schema.ts';

/** Access-control rules and command groups (migration 0300). JSON columns are text. */
interface Audited {
  created_by: string;
  updated_by: string;
  date_created: string;
  date_updated: string;
}

interface BaseAcl extends Audited {
  id: string;
  name: string;
  priority: number;
  action: string;
  is_active: Bool;
  comment: string;
  /** JSON selector `{type: all|ids|attrs, ...}`. */
  users: string;
}

export interface LoginAclTable extends BaseAcl {
  /** JSON `{ip_group: [...], time_period: [{id, value}]}`. */
  rules: string;
}

export interface ConnectMethodAclTable extends BaseAcl {
  /** JSON list of connect method values. */
  connect_methods: string;
}

export interface LoginAssetAclTable extends BaseAcl {
  org_id: string;
  assets: string;
  /** JSON list of account usernames, `@ALL` or `*`. */
  accounts: string;
  rules: string;
}

export interface CommandFilterAclTable extends BaseAcl {
  org_id: string;
  assets: string;
  accounts: string;
}

export interface CommandGroupTable extends Audited {
  id: string;
  name: string;
  type: string;
  content: string;
  ignore_case: Bool;
  comment: string;
  org_id: string;
}

export interface AclReviewerTable {
  id: string;
  acl_id: string;
  user_id: string;
}

export interface CommandFilterGroupTable {
  id: string;
  commandfilteracl_id: string;
  commandgroup_id: string;
}

export interface AclTables {
  acls_loginacl: LoginAclTable;
  acls_connectmethodacl: ConnectMethodAclTable;
  acls_loginassetacl: LoginAssetAclTable;
  acls_commandfilteracl: CommandFilterAclTable;
  acls_commandgroup: CommandGroupTable;
  acls_loginacl_reviewers: AclReviewerTable;
  acls_loginassetacl_reviewers: AclReviewerTable;
  acls_commandfilteracl_reviewers: AclReviewerTable;
  acls_commandfilteracl_command_groups: CommandFilterGroupTable;
}
