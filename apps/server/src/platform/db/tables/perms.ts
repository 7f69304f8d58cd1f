import type { Bool } from '../schema.ts';

/** Asset permissions and their four link tables (migration 0400). */
export interface AssetPermissionTable {
  id: string;
  name: string;
  /** JSON list: usernames, `@ALL`, `@INPUT`, `@USER`, `@ANON`, `%<template id>`. */
  accounts: string;
  /** Bit mask of the actions (connect 1, upload 2, download 4, copy 8, paste 16, delete 32). */
  actions: number;
  date_start: string;
  date_expired: string;
  is_active: Bool;
  from_ticket: Bool;
  comment: string;
  /** The date_expired whose "expires soon" message was sent. */
  expire_notified: string | null;
  created_by: string;
  updated_by: string;
  date_created: string;
  date_updated: string;
  org_id: string;
}

interface Link {
  id: string;
  assetpermission_id: string;
}

export interface PermsTables {
  perms_assetpermission: AssetPermissionTable;
  perms_assetpermission_users: Link & { user_id: string };
  perms_assetpermission_user_groups: Link & { usergroup_id: string };
  perms_assetpermission_assets: Link & { asset_id: string };
  perms_assetpermission_nodes: Link & { node_id: string };
}
