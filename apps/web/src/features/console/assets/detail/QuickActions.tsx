import { useState } from 'react';
import { App, Button, Card, Descriptions, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../../lib/appStore.ts';
import { http } from '../../../../lib/http.ts';
import { errorMessage } from '../../../../resource/errorMessage.ts';
import type { ResourceObject } from '../../../../resource/types.ts';
import { ConnectivityTag } from './ConnectivityTag.tsx';
import { taskLogPath, waitForTask } from './useTaskResult.ts';

const ASSETS = '/api/v1/assets/assets/';

/**
 * The asset's quick actions: the active switch and the connectivity
 * test. Refresh hardware is not offered: the server does not support it yet (it needs accounts).
 */
export function QuickActions({ asset, reload }: { asset: ResourceObject; reload(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const held = useAppStore((s) => s.perms);
  const [busy, setBusy] = useState<string | null>(null);
  const canChange = hasPermission(held, 'assets.change_asset');
  const canTest = hasPermission(held, 'assets.test_assetconnectivity');

  const setActive = async (on: boolean) => {
    setBusy('active');
    try {
      await http.patch(`${ASSETS}${asset.id}/`, { is_active: on });
      void message.success(t('assets.detail.saved'));
      reload();
    } catch (e) {
      void message.error(errorMessage(e, t));
    } finally {
      setBusy(null);
    }
  };

  const runTask = async (action: 'test') => {
    setBusy(action);
    // The log page opens at once (a popup opened later would be blocked), then follows the task.
    const tab = window.open('about:blank', '_blank');
    try {
      const { task } = await http.post<{ task: string }>(`${ASSETS}${asset.id}/tasks/`, { action });
      if (tab) tab.location.href = taskLogPath(task);
      const state = await waitForTask(task);
      if (state.state === 'FAILURE') void message.error(t('assets.detail.taskFailed'));
      else void message.success(t('assets.detail.testDone'));
      reload();
    } catch (e) {
      tab?.close();
      void message.error(errorMessage(e, t));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card title={t('assets.detail.quickActions')} data-testid="asset-quick-actions">
      <Descriptions
        column={1}
        size="small"
        items={[
          {
            key: 'active',
            label: t('assets.detail.active'),
            children: (
              <Switch
                checked={Boolean(asset.is_active)}
                disabled={!canChange}
                loading={busy === 'active'}
                onChange={(on) => void setActive(on)}
                data-testid="asset-active-switch"
              />
            ),
          },
          {
            key: 'test',
            label: t('assets.detail.testConnectivity'),
            children: (
              <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
                <Button
                  size="small"
                  disabled={!canTest}
                  loading={busy === 'test'}
                  onClick={() => void runTask('test')}
                  data-testid="asset-test"
                >
                  {t('assets.detail.test')}
                </Button>
                <ConnectivityTag value={asset.connectivity} />
              </span>
            ),
          },
        ]}
      />
    </Card>
  );
}
