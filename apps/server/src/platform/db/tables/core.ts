import type { Bool } from '../schema.ts';

/** Core tables: organisations, users, roles and bindings, login sessions, settings (migration 0001). */
export interface OrgTable {
  id: string;
  name: string;
  builtin: Bool;
  comment: string;
  created_by: string;
  date_created: string;
  date_updated: string;
}

export interface UserTable {
  id: string;
  username: string;
  name: string;
  email: string;
  password: string;
  is_active: Bool;
  is_first_login: Bool;
  need_update_password: Bool;
  is_service_account: Bool;
  source: string;
  mfa_level: number;
  phone: string;
  wechat: string;
  comment: string;
  date_expired: string;
  date_joined: string;
  last_login: string | null;
  date_password_last_updated: string | null;
  created_by: string;
  updated_by: string;
  date_updated: string;
}

export interface RoleTable {
  id: string;
  name: string;
  scope: 'system' | 'org';
  builtin: Bool;
  comment: string;
  created_by: string;
  updated_by: string;
  date_created: string;
  date_updated: string;
}

export interface RolePermissionTable {
  role_id: string;
  permission: string;
}

export interface RoleBindingTable {
  id: string;
  scope: 'system' | 'org';
  user_id: string;
  role_id: string;
  org_id: string | null;
  created_by: string;
  date_created: string;
}

export interface SessionTable {
  id: string;
  user_id: string;
  data: string;
  expire_at: string;
  date_created: string;
  last_active: string;
  /** Where the sign-in came from (migration 0750), for the online user sessions list. */
  ip: string;
  city: string;
  user_agent: string;
  /** W web, T terminal, U unknown: the login log's type. */
  type: string;
  backend: string;
}

export interface SettingTable {
  name: string;
  value: string;
  category: string;
  encrypted: Bool;
  date_updated: string;
}

export interface CoreTables {
  orgs_organization: OrgTable;
  users_user: UserTable;
  rbac_role: RoleTable;
  rbac_role_permission: RolePermissionTable;
  rbac_rolebinding: RoleBindingTable;
  auth_session: SessionTable;
  settings_setting: SettingTable;
}
