/** User groups, group membership, operate and activity logs (migration 0002). */
export interface UserGroupTable {
  id: string;
  name: string;
  comment: string;
  org_id: string;
  created_by: string;
  updated_by: string;
  date_created: string;
  date_updated: string;
}

export interface UserGroupLinkTable {
  id: string;
  user_id: string;
  usergroup_id: string;
}

export interface OperateLogTable {
  id: string;
  user: string;
  action: string;
  resource_type: string;
  resource: string;
  resource_id: string;
  remote_addr: string;
  datetime: string;
  org_id: string;
  /** JSON: [{field, before, after}] with field labels. */
  diff: string;
}

export interface ActivityLogTable {
  id: string;
  /** O operate, S session, L login, T task. */
  type: string;
  resource_id: string;
  detail: string;
  detail_id: string | null;
  username: string;
  datetime: string;
  org_id: string;
}

export interface UsersAuditTables {
  users_usergroup: UserGroupTable;
  users_user_groups: UserGroupLinkTable;
  audits_operatelog: OperateLogTable;
  audits_activitylog: ActivityLogTable;
}
