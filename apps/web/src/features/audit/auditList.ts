import type { ResourcePageParts } from '../../resource/resourceRoute.tsx';

/**
 * What every audit log list shares: no left-side actions, no import, a date range (the last
 * 7 days by default), no edit or delete on rows. A page spreads it and adds its columns.
 */
export const AUDIT_LIST = {
  hasDatePicker: true,
  headerActions: { hasCreate: false, hasBulkDelete: false, hasImport: false },
  rowActions: { hasUpdate: false, hasDelete: false, hasClone: false },
} satisfies Partial<ResourcePageParts['list']>;

/** A log's detail: no activity, no update, no delete. */
export const AUDIT_DETAIL = {
  hasActivity: false,
  canUpdate: () => false,
  canDelete: () => false,
} satisfies Partial<ResourcePageParts['detail']>;
