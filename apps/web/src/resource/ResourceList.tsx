import { Fragment, useMemo, useState, type HTMLAttributes, type ReactNode } from 'react';
import { Alert, Table, type TableColumnsType } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Profile } from '@gatehouse/contract';
import { useAppStore } from '../lib/appStore.ts';
import { http } from '../lib/http.ts';
import { BulkUpdateDialog } from './BulkUpdateDialog.tsx';
import { ColumnChooser } from './ColumnChooser.tsx';
import {
  ACTIONS,
  buildColumns,
  lockedColumns,
  shownColumns,
  type ColumnsConfig,
  type DisplayContext,
} from './columns.ts';
import { DateRangeFilter } from './DateRangeFilter.tsx';
import { errorMessage } from './errorMessage.ts';
import { ExportDialog } from './ExportDialog.tsx';
import type { FieldSpec } from './FormField.tsx';
import { ImportDialog } from './ImportDialog.tsx';
import { ListToolbar } from './ListToolbar.tsx';
import { useResourcePaths, type ResourcePaths } from './resourcePaths.ts';
import { RowActions, type RowAction } from './RowActions.tsx';
import { filterOptions, SEARCH_KEY } from './searchTags.ts';
import { SearchTags } from './SearchTags.tsx';
import { PAGE_SIZES, readShownColumns, saveShownColumns, tableKey } from './tableConfig.ts';
import { useDeleteResource } from './useDeleteResource.ts';
import { useListState } from './useListState.ts';
import { useResourceMeta } from './useResourceMeta.ts';
import { usePrefetchWhen } from '../lib/usePrefetchWhen.ts';
import { useResourcePerms, type PermsOptions } from './useResourcePerms.ts';
import type { FieldMetaMap, Page, Query, ResourceObject } from './types.ts';

/** What row conditions may look at. */
export interface RowContext extends DisplayContext {
  profile: Profile | null;
}

export interface HeaderActionsConfig {
  hasCreate?: boolean;
  hasBulkDelete?: boolean;
  hasImport?: boolean;
  hasExport?: boolean;
  hasRefresh?: boolean;
  hasColumnSetting?: boolean;
  hasSearch?: boolean;
  /** Fields offered by "Batch update"; without them the action is not offered. */
  bulkUpdateFields?: string[];
  /** Replaces "go to the create page" (e.g. a picker first). */
  onCreate?(): void;
  /** More header buttons after "Create" (each renders its own button and dialog; `reload` refreshes the list). */
  extra?: { key: string; render(reload: () => void): ReactNode }[];
  /** More batch actions on the selected rows. */
  batchExtra?: {
    key: string;
    label: string;
    has?: boolean;
    onClick(rows: ResourceObject[], reload: () => void): void;
  }[];
}

export interface RowActionsConfig {
  hasUpdate?: boolean;
  hasDelete?: boolean;
  hasClone?: boolean;
  canUpdate?(row: ResourceObject, ctx: RowContext): boolean;
  canDelete?(row: ResourceObject, ctx: RowContext): boolean;
  extra?: (Omit<RowAction, 'has' | 'can' | 'order' | 'onClick'> & {
    order?: number;
    has?(row: ResourceObject): boolean;
    onClick(row: ResourceObject, reload: () => void): void;
  })[];
}

/** A list declaration (`tableConfig` and `headerActions`). */
export interface ResourceListProps extends ColumnsConfig, PermsOptions {
  url: string;
  /** Storage key of the column choice; default the URL path. */
  name?: string;
  extraQuery?: Query;
  hasDatePicker?: boolean;
  /** Mirror the search into the page address (list pages; not lists inside tabs). */
  urlQuery?: boolean;
  searchExclude?: string[];
  headerActions?: HeaderActionsConfig;
  rowActions?: RowActionsConfig;
  /** Widgets for the batch-update dialog. */
  fieldsMeta?: Record<string, FieldSpec>;
  /** The pages of the listed resource; default those of the resource being shown, `null` for none. */
  paths?: ResourcePaths | null;
  /** Where a name links; default the resource's detail page. */
  detailPath?(row: ResourceObject): string | undefined;
  /** The column that links to the detail; default `name`. */
  linkColumn?: string;
  /** Extra attributes of each table row (e.g. to make rows draggable). */
  onRow?(row: ResourceObject, selected: ResourceObject[]): HTMLAttributes<HTMLElement>;
  /** Told the selected rows whenever the selection changes. */
  onSelectionChange?(rows: ResourceObject[]): void;
  /**
   * The columns' metadata when the list answers no OPTIONS (a user's granted assets, a permission's
   * users): then no OPTIONS is asked; labels come from `columnsMeta`.
   */
  fieldsGet?: FieldMetaMap;
  /** Hide the selection checkboxes (lists with no batch action). */
  noSelection?: boolean;
  /** The server stops counting at this many (commands): a count of it reads "10,000+". */
  countCap?: number;
}

/** A server-paged table built from the list's OPTIONS metadata, with its header and row actions. */
export function ResourceList(props: ResourceListProps) {
  const { url, headerActions: h = {}, rowActions: ra = {} } = props;
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const scopePaths = useResourcePaths();
  const paths = props.paths === undefined ? scopePaths : (props.paths ?? undefined);
  const perms = useResourcePerms(url, props);
  const profile = useAppStore((s) => s.profile);
  const hasValidLicense = useAppStore((s) =>
    Boolean(s.publicSettings?.XPACK_ENABLED && s.publicSettings.XPACK_LICENSE_IS_VALID),
  );
  const ctx: RowContext = { isRootOrg: perms.isRootOrg, hasValidLicense, profile };
  const meta = useResourceMeta(url, { draw: true, enabled: !props.fieldsGet });
  const getMeta = useMemo(() => props.fieldsGet ?? meta.data?.actions?.GET ?? {}, [meta.data, props.fieldsGet]);
  const metaReady = Boolean(props.fieldsGet) || meta.isSuccess;
  const columns = useMemo(
    () => buildColumns(getMeta, props, ctx),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- ctx is rebuilt every render; its two flags are the deps
    [getMeta, props, ctx.isRootOrg, ctx.hasValidLicense],
  );
  const key = tableKey(props.name, url);
  const [stored, setStored] = useState(() => readShownColumns(key));
  const shown = shownColumns(columns, props, stored);
  const yes = t('resource.yes');
  const no = t('resource.no');
  const options = useMemo(
    () => filterOptions(getMeta, [yes, no], { exclude: props.searchExclude }),
    [getMeta, yes, no, props.searchExclude],
  );
  const state = useListState({
    options,
    urlQuery: Boolean(props.urlQuery),
    hasDatePicker: Boolean(props.hasDatePicker),
    extraQuery: props.extraQuery,
  });
  // The rows are asked beside the metadata when the query does not depend on its filter options.
  const listReady = metaReady || !state.needsOptions;
  const listKey = ['resource-list', url, state.query];
  const fetchList = () => http.get<Page<ResourceObject> | ResourceObject[]>(url, { params: state.query });
  usePrefetchWhen(listReady, listKey, fetchList);
  const list = useQuery({
    queryKey: listKey,
    queryFn: fetchList,
    enabled: listReady,
    placeholderData: keepPreviousData,
  });
  const rows = useMemo(() => (Array.isArray(list.data) ? list.data : (list.data?.results ?? [])), [list.data]);
  const total = Array.isArray(list.data) ? list.data.length : (list.data?.count ?? 0);
  const [selected, setSelected] = useState<Map<string, ResourceObject>>(new Map());
  const [dialog, setDialog] = useState<'columns' | 'import' | 'export' | 'bulkUpdate' | null>(null);
  const { confirmDelete, confirmBulkDelete } = useDeleteResource(url);

  const reload = () => void list.refetch();
  const afterDelete = () => {
    setSelected(new Map());
    props.onSelectionChange?.([]);
    reload();
  };
  const detailPath = props.detailPath ?? (paths ? (row: ResourceObject) => paths.detail(row.id) : undefined);

  const rowActions = (row: ResourceObject): RowAction[] => [
    {
      name: 'update',
      title: 'resource.update',
      order: 10,
      has: Boolean(paths) && ra.hasUpdate !== false && perms.may.change,
      can: perms.canUpdate && (ra.canUpdate?.(row, ctx) ?? true),
      onClick: (r) => paths && navigate(paths.update(r.id)),
    },
    {
      name: 'delete',
      title: 'resource.delete.action',
      danger: true,
      order: 20,
      has: ra.hasDelete !== false && perms.may.delete,
      can: perms.canDelete && (ra.canDelete?.(row, ctx) ?? true),
      onClick: (r) => confirmDelete(r, afterDelete),
    },
    {
      name: 'clone',
      title: 'resource.clone',
      order: 30,
      has: Boolean(paths) && ra.hasClone !== false && perms.may.add,
      can: perms.canClone,
      onClick: (r) => paths && navigate(`${paths.create}?clone_from=${r.id}`),
    },
    ...(ra.extra ?? []).map((x) => ({
      ...x,
      order: x.order ?? 100,
      has: x.has?.(row) ?? true,
      can: true,
      onClick: (r: ResourceObject) => x.onClick(r, reload),
    })),
  ];

  const tableColumns: TableColumnsType<ResourceObject> = columns
    .filter((c) => shown.includes(c.key))
    .map((c) => ({
      key: c.key,
      dataIndex: c.key,
      title: c.labelKey ? t(c.label) : c.label,
      width: c.width,
      fixed: c.key === ACTIONS ? 'right' : undefined,
      sorter: c.sortable,
      sortOrder: state.order === c.key ? 'ascend' : state.order === `-${c.key}` ? 'descend' : null,
      render: (value: unknown, row: ResourceObject) => {
        if (c.key === ACTIONS) return <RowActions row={row} actions={rowActions(row)} />;
        const cell = c.formatter({ row, field: c.key, value, meta: c.meta, lang: i18n.language, t });
        const to = c.key === (props.linkColumn ?? 'name') && perms.canView ? detailPath?.(row) : undefined;
        return to ? <Link to={to}>{cell}</Link> : cell;
      },
    }));

  const searchKeys = [SEARCH_KEY, ...options.map((o) => o.value)];
  const selectedRows = [...selected.values()];

  return (
    <div data-testid="resource-list">
      <ListToolbar
        selectedCount={selected.size}
        create={{
          has: h.hasCreate !== false && (Boolean(paths) || Boolean(h.onCreate)) && perms.may.add,
          can: perms.canCreate,
          onClick: () => (h.onCreate ? h.onCreate() : paths && navigate(paths.create)),
        }}
        bulkDelete={{
          has: h.hasBulkDelete !== false && perms.may.delete,
          can: perms.canDelete,
          onClick: () => confirmBulkDelete(selectedRows, afterDelete),
        }}
        bulkUpdate={{
          has: Boolean(h.bulkUpdateFields?.length) && perms.may.change,
          can: perms.canBulkUpdate,
          onClick: () => setDialog('bulkUpdate'),
        }}
        importing={{
          has: h.hasImport !== false && (perms.may.add || perms.may.change),
          can: perms.canImportCreate || perms.canImportUpdate,
          onClick: () => setDialog('import'),
        }}
        exporting={{
          has: h.hasExport !== false && perms.may.view,
          can: perms.canExport,
          onClick: () => setDialog('export'),
        }}
        extra={h.extra?.map((x) => (
          <Fragment key={x.key}>{x.render(reload)}</Fragment>
        ))}
        refresh={{ has: h.hasRefresh !== false, can: true, onClick: reload }}
        columns={{ has: h.hasColumnSetting !== false, can: columns.length > 0, onClick: () => setDialog('columns') }}
        batchExtra={h.batchExtra
          ?.filter((x) => x.has !== false)
          .map((x) => ({ key: x.key, label: x.label, onClick: () => x.onClick(selectedRows, afterDelete) }))}
        filters={
          <>
            {h.hasSearch !== false && <SearchTags options={options} tags={state.tags} onChange={state.setTags} />}
            {props.hasDatePicker && <DateRangeFilter value={state.dateRange} onChange={state.setDateRange} />}
          </>
        }
      />
      {(meta.error ?? list.error) && (
        <Alert type="error" showIcon title={errorMessage(meta.error ?? list.error, t)} style={{ marginBottom: 12 }} />
      )}
      <Table<ResourceObject>
        rowKey="id"
        size="middle"
        loading={!metaReady || list.isFetching}
        dataSource={rows}
        columns={tableColumns}
        scroll={{ x: 'max-content' }}
        onRow={props.onRow ? (row) => props.onRow!(row, selectedRows) : undefined}
        rowSelection={
          props.noSelection
            ? undefined
            : {
                selectedRowKeys: [...selected.keys()],
                preserveSelectedRowKeys: true,
                onChange: (keys) => {
                  const next = new Map(
                    keys.map((k) => [String(k), selected.get(String(k)) ?? rows.find((r) => r.id === k)!]),
                  );
                  setSelected(next);
                  props.onSelectionChange?.([...next.values()]);
                },
              }
        }
        pagination={{
          current: state.page,
          pageSize: state.pageSize,
          total,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES.map(String),
          showTotal: (n) =>
            props.countCap !== undefined && n >= props.countCap
              ? t('resource.totalCapped', { count: n, shown: n.toLocaleString(i18n.language) })
              : t('resource.total', { count: n }),
        }}
        onChange={(pagination, _filters, sorter, extra) => {
          if (extra.action === 'sort') {
            const s = Array.isArray(sorter) ? sorter[0] : sorter;
            state.setOrder(s?.order ? `${s.order === 'descend' ? '-' : ''}${String(s.columnKey)}` : undefined);
          } else if (extra.action === 'paginate') {
            if (pagination.pageSize && pagination.pageSize !== state.pageSize) state.setPageSize(pagination.pageSize);
            else state.setPage(pagination.current ?? 1);
          }
        }}
      />
      <ColumnChooser
        open={dialog === 'columns'}
        columns={columns.map((c) => ({ key: c.key, label: c.labelKey ? t(c.label) : c.label }))}
        shown={shown}
        locked={lockedColumns(props)}
        onSave={(cols) => {
          saveShownColumns(key, cols);
          setStored(cols);
        }}
        onRestore={() => {
          saveShownColumns(key, undefined);
          setStored(undefined);
        }}
        onClose={() => setDialog(null)}
      />
      <ImportDialog
        open={dialog === 'import'}
        url={url}
        canCreate={perms.canImportCreate}
        canUpdate={perms.canImportUpdate}
        selected={selectedRows}
        onClose={() => {
          setDialog(null);
          reload();
        }}
      />
      <ExportDialog
        open={dialog === 'export'}
        url={url}
        tableQuery={state.tableQuery}
        searchKeys={searchKeys}
        hasFilter={state.hasFilter}
        selected={selectedRows}
        onClose={() => setDialog(null)}
      />
      {h.bulkUpdateFields && (
        <BulkUpdateDialog
          open={dialog === 'bulkUpdate'}
          url={url}
          rows={selectedRows}
          fields={h.bulkUpdateFields}
          fieldsMeta={props.fieldsMeta}
          onClose={(saved) => {
            setDialog(null);
            if (saved) reload();
          }}
        />
      )}
    </div>
  );
}
