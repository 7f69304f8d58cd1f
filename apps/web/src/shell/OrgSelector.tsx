import { useNavigate } from 'react-router';
import { type MenuProps } from 'antd';
import { LazyDropdown } from '../lib/LazyDropdown.tsx';
import { ApartmentOutlined, DownOutlined, PlusOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { storeOrg, usingOrgs, type ViewName } from '../lib/orgs.ts';
import { useAppStore } from '../lib/appStore.ts';
import { hasRoute } from '../app/viewRoutes.ts';
import { ORG_SWITCH_RELOAD_MS, orgSelectorState, orgSwitchTarget } from './orgSelector.ts';
import { useMatchedMeta, useVisibility } from './useShellContext.ts';
import styles from './Layout.module.css';

/**
 * The organisation selector. Switching stores the org, rewrites the address
 * without ids, and reloads the page after 400 ms.
 */
export function OrgSelector({ view }: { view: ViewName }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const profile = useAppStore((s) => s.profile);
  const current = useAppStore((s) => s.currentOrg);
  const { perms, licenseValid } = useVisibility();
  const route = useMatchedMeta().at(-1)?.meta;
  const state = orgSelectorState({ licenseValid, route, view, perms, hasRoute });
  if (!state.visible || !profile) return null;

  const label = (
    <span className={styles.org} data-testid="org-selector">
      <ApartmentOutlined />
      <span>{current?.name}</span>
      {!state.readOnly && <DownOutlined style={{ fontSize: 10 }} />}
    </span>
  );
  if (state.readOnly) return <span title={t('shell.org.readOnly')}>{label}</span>;

  const switchTo = (id: string) => {
    const org = usingOrgs(profile, view).find((o) => o.id === id);
    if (!org || org.id === current?.id) return;
    storeOrg(profile.username, org, current ?? undefined);
    const target = orgSwitchTarget(window.location.pathname.replace(/^\/ui/, ''), window.location.search, hasRoute);
    window.history.replaceState(null, '', `/ui${target}`);
    window.setTimeout(() => window.location.reload(), ORG_SWITCH_RELOAD_MS);
  };

  const orgs = usingOrgs(profile, view);
  const items: MenuProps['items'] = [
    ...orgs.map((o) => ({ key: o.id, label: o.name, onClick: () => switchTo(o.id) })),
    ...(state.actions.length ? [{ type: 'divider' as const }] : []),
    ...state.actions.map((a) => ({
      key: a.id,
      icon: a.id === 'create' ? <PlusOutlined /> : <UnorderedListOutlined />,
      label: t(a.label),
      disabled: a.disabled,
      onClick: () => navigate(a.to),
    })),
  ];
  return (
    <LazyDropdown menu={{ items, selectable: true, selectedKeys: current ? [current.id] : [] }} trigger={['click']}>
      <button type="button" className={styles.navButton} aria-label={t('shell.org.label')}>
        {label}
      </button>
    </LazyDropdown>
  );
}
