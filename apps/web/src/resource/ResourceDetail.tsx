import type { ReactNode } from 'react';
import { Button, Result, Space, Spin, Tabs, Typography } from 'antd';
import { ArrowLeftOutlined, DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../lib/appStore.ts';
import { HttpError } from '../lib/http.ts';
import { ActivityTimeline } from './ActivityTimeline.tsx';
import { errorMessage } from './errorMessage.ts';
import { useResourcePaths } from './resourcePaths.ts';
import { useActiveTab } from './useActiveTab.ts';
import { useDeleteResource } from './useDeleteResource.ts';
import { useResourceMeta } from './useResourceMeta.ts';
import { useResourceObject } from './useResourceObject.ts';
import { useResourcePerms, type PermsOptions } from './useResourcePerms.ts';
import type { FieldMetaMap, ResourceObject } from './types.ts';
import { objectName } from './values.ts';
import styles from './resource.module.css';

export interface DetailTab {
  name: string;
  /** i18n key. */
  title: string;
  hidden?(object: ResourceObject): boolean;
  render(object: ResourceObject, ctx: { meta: FieldMetaMap; reload(): void }): ReactNode;
}

export interface ResourceDetailProps extends PermsOptions {
  url: string;
  id: string;
  /** i18n key of the object kind, the title's prefix ("User: alice"). */
  kind: string;
  tabs: DetailTab[];
  hasActivity?: boolean;
  getObjectName?(object: ResourceObject): string;
  /** Object conditions on the heading's Update and Delete (e.g. builtin objects are read-only). */
  canUpdate?(object: ResourceObject): boolean;
  canDelete?(object: ResourceObject): boolean;
}

export const ACTIVITY_TAB = 'Activity';
export const MAX_TITLE = 80;

/** "<kind>: <name>", at most 80 characters. */
export function detailTitle(kind: string, name: string): string {
  const title = `${kind}: ${name}`;
  return title.length > MAX_TITLE ? `${title.slice(0, MAX_TITLE - 1)}…` : title;
}

/** A detail page: back, title, Update and Delete, tabs with an Activity tab. */
export function ResourceDetail({
  url,
  id,
  kind,
  tabs,
  hasActivity = true,
  getObjectName,
  canUpdate,
  canDelete,
  ...permOpts
}: ResourceDetailProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const paths = useResourcePaths();
  const perms = useResourcePerms(url, permOpts);
  const held = useAppStore((s) => s.perms);
  const meta = useResourceMeta(url);
  const object = useResourceObject(url, id);
  const { confirmDelete } = useDeleteResource(url);

  const visible = object.data ? tabs.filter((tab) => !tab.hidden?.(object.data)) : tabs;
  const withActivity = hasActivity && hasPermission(held, 'audits.view_activitylog');
  const names = [...visible.map((tab) => tab.name), ...(withActivity ? [ACTIVITY_TAB] : [])];
  const [active, setActive] = useActiveTab(names, names[0] ?? ACTIVITY_TAB);

  if (object.isPending || meta.isPending) return <Spin />;
  if (object.error) {
    const lost = object.error instanceof HttpError && object.error.status === 404;
    return (
      <Result
        status={lost ? '404' : 'error'}
        title={lost ? t('resource.detail.lost') : errorMessage(object.error, t)}
      />
    );
  }
  const obj = object.data;
  const name = getObjectName?.(obj) ?? objectName(obj.name ?? obj.hostname ?? obj.id);
  const getMeta = meta.data?.actions?.GET ?? {};
  const reload = () => void object.refetch();
  const canGoBack = window.history.length > 1 && !location.pathname.endsWith('/dashboard');

  return (
    <div data-testid="resource-detail">
      <div className={styles.detailHeader}>
        <Space>
          <Button
            icon={<ArrowLeftOutlined />}
            disabled={!canGoBack}
            onClick={() => navigate(-1)}
            aria-label={t('resource.back')}
          />
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="detail-title">
            {detailTitle(t(kind), name)}
          </Typography.Title>
        </Space>
        <Space>
          {paths && perms.canUpdate && (canUpdate?.(obj) ?? true) && (
            <Button
              type="primary"
              icon={<EditOutlined />}
              onClick={() => navigate({ pathname: paths.update(id), search: location.search })}
            >
              {t('resource.update')}
            </Button>
          )}
          {perms.may.delete && (canDelete?.(obj) ?? true) && (
            <Button
              danger
              icon={<DeleteOutlined />}
              onClick={() => confirmDelete(obj, () => paths && navigate(paths.list))}
            >
              {t('resource.delete.action')}
            </Button>
          )}
        </Space>
      </div>
      <Tabs
        activeKey={active}
        onChange={setActive}
        items={[
          ...visible.map((tab) => ({
            key: tab.name,
            label: t(tab.title),
            children: tab.render(obj, { meta: getMeta, reload }),
          })),
          ...(withActivity
            ? [{ key: ACTIVITY_TAB, label: t('resource.activity.tab'), children: <ActivityTimeline resourceId={id} /> }]
            : []),
        ]}
      />
    </div>
  );
}
