import type { ReactNode } from 'react';
import { Button, Dropdown, Tooltip, type MenuProps } from 'antd';
import {
  DownOutlined,
  ExportOutlined,
  ImportOutlined,
  PlusOutlined,
  ReloadOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import styles from './resource.module.css';

/** A header action: shown when `has`, enabled when `can`. */
export interface ToolbarAction {
  has: boolean;
  can: boolean;
  onClick(): void;
}

export interface ListToolbarProps {
  selectedCount: number;
  create: ToolbarAction;
  bulkDelete: ToolbarAction;
  bulkUpdate: ToolbarAction;
  importing: ToolbarAction;
  exporting: ToolbarAction;
  refresh: ToolbarAction;
  columns: ToolbarAction;
  /** The search box and date range. */
  filters: ReactNode;
  /** More buttons beside "Create". */
  extra?: ReactNode;
  /** More entries of the batch menu (after delete and update). */
  batchExtra?: { key: string; label: string; disabled?: boolean; onClick(): void }[];
}

function IconAction({
  action,
  title,
  icon,
  testId,
}: {
  action: ToolbarAction;
  title: string;
  icon: ReactNode;
  testId: string;
}) {
  if (!action.has) return null;
  return (
    <Tooltip title={title}>
      <Button icon={icon} disabled={!action.can} onClick={action.onClick} aria-label={title} data-testid={testId} />
    </Tooltip>
  );
}

/** Left: create and the batch menu; right: search, date range, columns, import, export, refresh. */
export function ListToolbar(p: ListToolbarProps) {
  const { t } = useTranslation();
  const more: MenuProps['items'] = [
    { key: 'label', type: 'group', label: t('resource.batch', { count: p.selectedCount }) },
    ...(p.bulkDelete.has
      ? [
          {
            key: 'bulkDelete',
            danger: true,
            label: t('resource.bulkDelete'),
            disabled: !p.bulkDelete.can || p.selectedCount === 0,
          },
        ]
      : []),
    ...(p.bulkUpdate.has
      ? [
          {
            key: 'bulkUpdate',
            label: t('resource.bulkUpdate.action'),
            disabled: !p.bulkUpdate.can || p.selectedCount === 0,
          },
        ]
      : []),
    ...(p.batchExtra ?? []).map((x) => ({ key: x.key, label: x.label, disabled: x.disabled || p.selectedCount === 0 })),
  ];
  const hasMore = p.bulkDelete.has || p.bulkUpdate.has || Boolean(p.batchExtra?.length);
  const onMenu = (key: string) => {
    if (key === 'bulkDelete') p.bulkDelete.onClick();
    else if (key === 'bulkUpdate') p.bulkUpdate.onClick();
    else p.batchExtra?.find((x) => x.key === key)?.onClick();
  };
  return (
    <div className={styles.toolbar}>
      <div className={styles.toolbarSide}>
        {p.create.has && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            disabled={!p.create.can}
            onClick={p.create.onClick}
            data-testid="list-create"
          >
            {t('resource.create')}
          </Button>
        )}
        {p.extra}
        {hasMore && (
          <Dropdown trigger={['click']} menu={{ items: more, onClick: ({ key }) => onMenu(key) }}>
            <Button data-testid="list-more">
              {t('resource.moreActions')} <DownOutlined />
            </Button>
          </Dropdown>
        )}
      </div>
      <div className={styles.toolbarSide}>
        {p.filters}
        <IconAction
          action={p.columns}
          title={t('resource.columns.title')}
          icon={<SettingOutlined />}
          testId="list-columns"
        />
        <IconAction
          action={p.importing}
          title={t('resource.import.title')}
          icon={<ImportOutlined />}
          testId="list-import"
        />
        <IconAction
          action={p.exporting}
          title={t('resource.export.title')}
          icon={<ExportOutlined />}
          testId="list-export"
        />
        <IconAction action={p.refresh} title={t('resource.refresh')} icon={<ReloadOutlined />} testId="list-refresh" />
      </div>
    </div>
  );
}
