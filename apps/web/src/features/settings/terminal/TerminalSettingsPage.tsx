import { Card, Table, Tabs, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../lib/appStore.ts';
import { http } from '../../../lib/http.ts';
import { useActiveTab } from '../../../resource/useActiveTab.ts';
import { SettingsForm } from '../form/SettingsForm.tsx';
import { TERMINAL_PAGE } from '../form/settingsPages.ts';
import { MonitorTab } from './MonitorTab.tsx';
import { CommandStorageList, EndpointList, EndpointRuleList, ReplayStorageList } from './terminalPages.tsx';

interface TerminalRow {
  id: string;
  name: string;
  type: string;
  remote_addr: string;
  session_online: number;
  is_alive: boolean;
  load: { value: string; label: string };
  stat: { cpu_load: number; memory_used: number };
}

const LOAD_COLOURS: Record<string, string> = {
  normal: 'success',
  high: 'warning',
  critical: 'error',
  offline: 'default',
};

/** The built-in gateways of the running instances and their load, read-only. */
function TerminalComponents() {
  const { t } = useTranslation();
  const list = useQuery({
    queryKey: ['/api/v1/terminal/terminals/'],
    queryFn: () => http.get<TerminalRow[]>('/api/v1/terminal/terminals/'),
    refetchInterval: 30_000,
  });
  return (
    <Table<TerminalRow>
      rowKey="id"
      size="small"
      loading={list.isPending}
      dataSource={list.data ?? []}
      pagination={false}
      data-testid="terminal-components"
      columns={[
        { title: t('settings.terminal.name'), dataIndex: 'name' },
        { title: t('settings.terminal.type'), dataIndex: 'type' },
        { title: t('settings.terminal.address'), dataIndex: 'remote_addr' },
        { title: t('settings.terminal.sessions'), dataIndex: 'session_online' },
        {
          title: t('settings.terminal.alive'),
          dataIndex: 'is_alive',
          render: (v: boolean) => t(v ? 'settings.terminal.yes' : 'settings.terminal.no'),
        },
        {
          title: t('settings.terminal.load'),
          dataIndex: 'load',
          render: (l: TerminalRow['load']) => <Tag color={LOAD_COLOURS[l.value]}>{l.label}</Tag>,
        },
        { title: t('settings.terminal.cpu'), render: (_: unknown, r) => r.stat.cpu_load.toFixed(2) },
        { title: t('settings.terminal.memory'), render: (_: unknown, r) => r.stat.memory_used.toFixed(1) },
      ]}
    />
  );
}

/**
 * Settings › Terminal: the basic settings, then a tab per resource for who may view it: components,
 * their monitor, replay and command storages, endpoints and endpoint rules (`?activeTab=` opens one, as the forms return).
 */
export function TerminalSettingsPage() {
  const { t } = useTranslation();
  const perms = useAppStore((s) => s.perms);
  const tabs = [
    { key: 'basic', perm: '', label: t('settings.terminal.tabBasic'), children: <SettingsForm page={TERMINAL_PAGE} /> },
    {
      key: 'components',
      perm: 'terminal.view_terminal',
      label: t('settings.terminal.tabComponents'),
      children: <TerminalComponents />,
    },
    {
      key: 'monitor',
      perm: 'terminal.view_terminal',
      label: t('settingsTerminal.tab.monitor'),
      children: <MonitorTab />,
    },
    {
      key: 'replay',
      perm: 'terminal.view_replaystorage',
      label: t('settingsTerminal.tab.replay'),
      children: <ReplayStorageList />,
    },
    {
      key: 'command',
      perm: 'terminal.view_commandstorage',
      label: t('settingsTerminal.tab.command'),
      children: <CommandStorageList />,
    },
    {
      key: 'endpoints',
      perm: 'terminal.view_endpoint',
      label: t('settingsTerminal.tab.endpoints'),
      children: <EndpointList />,
    },
    {
      key: 'endpointRules',
      perm: 'terminal.view_endpointrule',
      label: t('settingsTerminal.tab.endpointRules'),
      children: <EndpointRuleList />,
    },
  ].filter((x) => !x.perm || hasPermission(perms, x.perm));
  const [active, choose] = useActiveTab(
    tabs.map((x) => x.key),
    'basic',
  );
  return (
    <Card>
      <Tabs activeKey={active} onChange={choose} destroyOnHidden items={tabs.map(({ perm: _p, ...x }) => x)} />
    </Card>
  );
}
