import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../lib/appStore.ts';
import { useActiveTab } from '../../../resource/useActiveTab.ts';
import { AppletCards } from './AppletCards.tsx';
import { AppletHostList } from './appletPages.tsx';

/** Settings › Remote apps: Applets (the card grid) and Applet hosts, each for who may view it. */
export function AppletsPage() {
  const { t } = useTranslation();
  const perms = useAppStore((s) => s.perms);
  const tabs = [
    { key: 'applets', perm: 'terminal.view_applet', label: t('applets.tab.applets'), children: <AppletCards /> },
    { key: 'hosts', perm: 'terminal.view_applethost', label: t('applets.tab.hosts'), children: <AppletHostList /> },
  ].filter((x) => hasPermission(perms, x.perm));
  const [active, choose] = useActiveTab(
    tabs.map((x) => x.key),
    tabs[0]?.key ?? 'applets',
  );
  return (
    <Card>
      <Tabs activeKey={active} onChange={choose} destroyOnHidden items={tabs.map(({ perm: _p, ...x }) => x)} />
    </Card>
  );
}
