import { useMemo } from 'react';
import { hasPermission, ROOT_ORG_ID } from '@gatehouse/contract';
import { useAppStore } from '../lib/appStore.ts';
import { permissionFor, permissionNameFromUrl, type ResourcePermissionName } from './resourceUrl.ts';

/** What the current user may do with a resource. */
export interface ResourcePerms {
  name: ResourcePermissionName;
  isRootOrg: boolean;
  /** The permissions held, before the root-organisation rule (an action is shown when held). */
  may: Record<'add' | 'change' | 'delete' | 'view', boolean>;
  canView: boolean;
  canCreate: boolean;
  canUpdate: boolean;
  canDelete: boolean;
  canBulkUpdate: boolean;
  canClone: boolean;
  canImportCreate: boolean;
  canImportUpdate: boolean;
  canExport: boolean;
}

export interface PermsOptions {
  /** Overrides the app/resource derived from the URL (e.g. groups → usergroup). */
  permissions?: Partial<ResourcePermissionName>;
  /** The route keeps its organisation: writes are not refused in the root organisation. */
  disableOrgsChange?: boolean;
}

export function resourcePerms(
  url: string,
  held: ReadonlySet<string>,
  currentOrgId: string | undefined,
  opts: PermsOptions = {},
): ResourcePerms {
  const name = permissionNameFromUrl(url, opts.permissions);
  const has = (a: 'add' | 'change' | 'delete' | 'view') => hasPermission(held, permissionFor(name, a));
  const isRootOrg = currentOrgId === ROOT_ORG_ID;
  const writable = opts.disableOrgsChange || !isRootOrg;
  return {
    name,
    isRootOrg,
    may: { add: has('add'), change: has('change'), delete: has('delete'), view: has('view') },
    canView: has('view'),
    canCreate: has('add') && writable,
    canUpdate: has('change') && writable,
    canDelete: has('delete'),
    canBulkUpdate: has('change') && writable,
    canClone: has('add') && writable,
    canImportCreate: has('add') && writable,
    canImportUpdate: has('change') && writable,
    canExport: has('view'),
  };
}

export function useResourcePerms(url: string, opts: PermsOptions = {}): ResourcePerms {
  const held = useAppStore((s) => s.perms);
  const orgId = useAppStore((s) => s.currentOrg?.id);
  const { permissions, disableOrgsChange } = opts;
  return useMemo(
    () => resourcePerms(url, held, orgId, { permissions, disableOrgsChange }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the override object is compared by value
    [url, held, orgId, permissions?.app, permissions?.resource, disableOrgsChange],
  );
}
