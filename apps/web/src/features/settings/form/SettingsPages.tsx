import { Card, Table, Tabs, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../lib/appStore.ts';
import { http } from '../../../lib/http.ts';
import { SettingsForm } from './SettingsForm.tsx';
import { BASIC_PAGE, CLEAN_PAGE, SECURITY_PAGE, TERMINAL_PAGE } from './settingsPages.ts';

/** Settings › Basic: the site URL and the help links of the navbar. */
export function BasicSettingsPage() {
  return <SettingsForm page={BASIC_PAGE} />;
}

/** Settings › Security: password, authentication and MFA, session, login limit. */
export function SecuritySettingsPage() {
  return <SettingsForm page={SECURITY_PAGE} />;
}

/** Settings › Cleaning: how many days each kind of record is kept (modules/ops/retention.ts). */
export function CleaningSettingsPage() {
  return <SettingsForm page={CLEAN_PAGE} />;
}

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

/** Settings › Terminal: the basic settings, and the components tab for who may view terminals. */
export function TerminalSettingsPage() {
  const { t } = useTranslation();
  const canViewTerminals = useAppStore((s) => hasPermission(s.perms, 'terminal.view_terminal'));
  return (
    <Card>
      <Tabs
        items={[
          { key: 'basic', label: t('settings.terminal.tabBasic'), children: <SettingsForm page={TERMINAL_PAGE} /> },
          ...(canViewTerminals
            ? [{ key: 'components', label: t('settings.terminal.tabComponents'), children: <TerminalComponents /> }]
            : []),
        ]}
      />
    </Card>
  );
}
