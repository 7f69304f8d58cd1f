import { formatterForType, type CellFormatter } from './formatters.tsx';
import type { FieldMeta, FieldMetaMap } from './types.ts';

/** Where the page is, for column and action conditions. */
export interface DisplayContext {
  isRootOrg: boolean;
  hasValidLicense: boolean;
}

export interface ColumnOverride {
  /** i18n key of the header; default is the metadata label. */
  label?: string;
  width?: number;
  formatter?: CellFormatter;
  sortable?: boolean;
  /** `false` (or a false answer) drops the column. */
  has?: boolean | ((ctx: DisplayContext) => boolean);
}

/** The column part of a list declaration (`tableConfig`). */
export interface ColumnsConfig {
  /** Exactly these columns, instead of every readable field. */
  columns?: string[];
  columnsExclude?: string[];
  /** Columns that are not fields of the metadata (computed in formatters). */
  columnsExtra?: string[];
  columnsShow?: { default?: string[]; min?: string[] };
  columnsMeta?: Record<string, ColumnOverride>;
}

export interface ColumnDef {
  key: string;
  /** The header text, or an i18n key when `labelKey` is true. */
  label: string;
  labelKey: boolean;
  meta?: FieldMeta;
  formatter: CellFormatter;
  sortable: boolean;
  width?: number;
}

export const ACTIONS = 'actions';
export const DEFAULT_MIN_COLUMNS = [ACTIONS, 'id'];

/**
 * Columns from `actions.GET`: every field that is not write-only plus the extras (or just the
 * listed ones), minus the excluded and `has: false` ones, `actions` always last.
 */
export function buildColumns(getMeta: FieldMetaMap, cfg: ColumnsConfig, ctx: DisplayContext): ColumnDef[] {
  const exclude = new Set([...(cfg.columnsExclude ?? []), ACTIONS]);
  const names = cfg.columns ?? [
    ...Object.keys(getMeta).filter((k) => !getMeta[k]!.write_only),
    ...(cfg.columnsExtra ?? []),
  ];
  const keys = [...new Set(names)].filter((k) => {
    if (exclude.has(k)) return false;
    const has = cfg.columnsMeta?.[k]?.has;
    return typeof has === 'function' ? has(ctx) : has !== false;
  });
  const defs = keys.map((key): ColumnDef => {
    const meta = getMeta[key];
    const o = cfg.columnsMeta?.[key] ?? {};
    return {
      key,
      label: o.label ?? meta?.label ?? key,
      labelKey: Boolean(o.label),
      meta,
      formatter: o.formatter ?? formatterForType(meta),
      sortable: o.sortable ?? Boolean(meta?.order),
      width: o.width ?? (meta?.type === 'boolean' ? 80 : meta?.type === 'datetime' ? 180 : undefined),
    };
  });
  const o = cfg.columnsMeta?.[ACTIONS] ?? {};
  // Lists with no row actions (embedded, read-only) leave the column out with `actions: { has: false }`.
  if (o.has === false) return defs;
  defs.push({
    key: ACTIONS,
    label: o.label ?? 'resource.actions',
    labelKey: true,
    formatter: () => null,
    sortable: false,
    width: o.width ?? 150,
  });
  return defs;
}

/** Columns shown: the stored choice, else the default, always with the locked minimum, in column order. */
export function shownColumns(
  all: readonly ColumnDef[],
  cfg: ColumnsConfig,
  stored: readonly string[] | undefined,
): string[] {
  const keys = all.map((c) => c.key);
  const min = cfg.columnsShow?.min ?? DEFAULT_MIN_COLUMNS;
  const chosen = new Set([...(stored ?? cfg.columnsShow?.default ?? keys), ...min]);
  return keys.filter((k) => chosen.has(k));
}

export function lockedColumns(cfg: ColumnsConfig): string[] {
  return cfg.columnsShow?.min ?? DEFAULT_MIN_COLUMNS;
}
