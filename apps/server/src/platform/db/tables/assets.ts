import type { Bool } from '../schema.ts';

/** Assets, platforms, nodes, domains, labels and favourites (migrations 0150–0151). */
interface Audited {
  created_by: string;
  updated_by: string;
  date_created: string;
  date_updated: string;
}

export interface PlatformTable extends Audited {
  id: number;
  name: string;
  category: string;
  type: string;
  internal: Bool;
  charset: string;
  domain_enabled: Bool;
  su_enabled: Bool;
  su_method: string | null;
  /** JSON object. */
  automation: string;
  /** JSON list. */
  custom_fields: string;
  comment: string;
}

export interface PlatformProtocolTable {
  id: string;
  platform_id: number;
  name: string;
  port: number;
  primary: Bool;
  required: Bool;
  default: Bool;
  public: Bool;
  /** JSON object. */
  setting: string;
  position: number;
}

export interface DomainTable extends Audited {
  id: string;
  name: string;
  comment: string;
  org_id: string;
}

export interface AssetTable extends Audited {
  id: string;
  name: string;
  address: string;
  platform_id: number;
  category: string;
  type: string;
  domain_id: string | null;
  is_active: Bool;
  /** `-` unknown, `ok`, `err`. */
  connectivity: string;
  date_verified: string | null;
  comment: string;
  gathered_info: string;
  db_name: string | null;
  use_ssl: Bool | null;
  allow_invalid_cert: Bool | null;
  ca_cert: string | null;
  client_cert: string | null;
  client_key: string | null;
  autofill: string | null;
  username_selector: string | null;
  password_selector: string | null;
  submit_selector: string | null;
  script: string | null;
  proxy: string | null;
  custom_info: string | null;
  org_id: string;
}

export interface AssetProtocolTable {
  id: string;
  asset_id: string;
  name: string;
  port: number;
}

export interface NodeTable {
  id: string;
  /** Materialised path: `1`, `1:3`, `1:3:2`. */
  key: string;
  value: string;
  /** '' for an org's root node. */
  parent_key: string;
  /** The last child number handed out. */
  child_mark: number;
  /** Distinct assets in the node and its descendants, kept exact on every change. */
  assets_amount: number;
  org_id: string;
  date_create: string;
}

export interface AssetNodeTable {
  id: string;
  asset_id: string;
  node_id: string;
}

export interface LabelTable extends Audited {
  id: string;
  name: string;
  value: string;
  category: string;
  is_active: Bool;
  comment: string;
  org_id: string;
}

export interface AssetLabelTable {
  id: string;
  asset_id: string;
  label_id: string;
}

export interface FavoriteAssetTable {
  id: string;
  user_id: string;
  asset_id: string;
  date_created: string;
}

export interface AssetTables {
  assets_platform: PlatformTable;
  assets_platformprotocol: PlatformProtocolTable;
  assets_domain: DomainTable;
  assets_asset: AssetTable;
  assets_protocol: AssetProtocolTable;
  assets_node: NodeTable;
  assets_asset_nodes: AssetNodeTable;
  assets_label: LabelTable;
  assets_asset_labels: AssetLabelTable;
  assets_favoriteasset: FavoriteAssetTable;
}
