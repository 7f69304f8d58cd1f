import type { ZTreeItem } from '../../assets/nodeTree/treeState.ts';
import { http } from '../../../../lib/http.ts';
import type { ColumnOverride } from '../../../../resource/columns.ts';
import type { FieldMetaMap } from '../../../../resource/types.ts';

/**
 * What a user (or a user group) is granted, as the console and the workbench list it: the URLs of
 * `/api/v1/perms/users/<self|id>/…` and `/user-groups/<id>/…`, and the columns of a granted asset
 * (these lists answer no OPTIONS, so their fields are declared here).
 */
export const PERMS_USERS = '/api/v1/perms/users';
export const PERMS_GROUPS = '/api/v1/perms/user-groups';

export interface GrantUrls {
  assets: string;
  nodeAssets(nodeId: string): string;
  tree(key?: string): Promise<ZTreeItem[]>;
}

/** The grant URLs of a user (`self` for the signed-in one) or of a user group. */
export function grantUrls(who: { user: string } | { group: string }): GrantUrls {
  const base = 'user' in who ? `${PERMS_USERS}/${who.user}` : `${PERMS_GROUPS}/${who.group}`;
  return {
    assets: `${base}/assets/`,
    nodeAssets: (nodeId) => `${base}/nodes/${nodeId}/assets/`,
    tree: (key) => http.get<ZTreeItem[]>(`${base}/nodes/children/tree/`, { params: key ? { key } : {} }),
  };
}

export const GRANTED_ASSET_FIELDS: FieldMetaMap = {
  name: { type: 'string' },
  address: { type: 'string' },
  platform: { type: 'related_field' },
  category: { type: 'labeled_choice' },
  type: { type: 'labeled_choice' },
  connectivity: { type: 'labeled_choice' },
  is_active: { type: 'boolean' },
  org_name: { type: 'string' },
  comment: { type: 'string' },
};

export const GRANTED_ASSET_LABELS: Record<string, ColumnOverride> = Object.fromEntries(
  Object.keys(GRANTED_ASSET_FIELDS).map((f) => [f, { label: `perms.asset.${f}` }]),
);
