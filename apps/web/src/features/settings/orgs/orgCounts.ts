import type { CellFormatter } from '../../../resource/formatters.tsx';

/** The counts of `resource_statistics` shown as columns and detail rows. */
export const ORG_COUNTS = ['users_amount', 'groups_amount', 'assets_amount', 'asset_perms_amount'] as const;

/** One count of an organisation's `resource_statistics`. */
export const count =
  (key: string): CellFormatter =>
  ({ row }) =>
    String((row.resource_statistics as Record<string, unknown> | undefined)?.[key] ?? 0);
