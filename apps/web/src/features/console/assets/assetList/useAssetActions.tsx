import { App } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { hasPermission, ROOT_ORG_ID } from '@gatehouse/contract';
import { useAppStore } from '../../../../lib/appStore.ts';
import { http } from '../../../../lib/http.ts';
import { errorMessage } from '../../../../resource/errorMessage.ts';
import type { HeaderActionsConfig, RowActionsConfig } from '../../../../resource/ResourceList.tsx';
import type { ResourceObject } from '../../../../resource/types.ts';
import { categoryPath } from '../categories.ts';

const ASSETS = '/api/v1/assets/assets/';
/** `/console/assets/<plural>` of a row's category. */
export const pagesOf = (row: ResourceObject) => `/console/assets/${categoryPath(row.category)}`;

interface Task {
  state?: string;
}

/** Polls a connectivity task until it ends (at most two minutes). */
async function waitForTask(id: string): Promise<void> {
  for (let i = 0; i < 120; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const task = await http.get<Task>(`/api/v1/ops/celery/task/${id}/`).catch(() => null);
    if (task && (task.state === 'SUCCESS' || task.state === 'FAILURE')) return;
  }
}

/** Row and batch actions of the asset list. */
export function useAssetActions(
  url: string,
  onCreate: () => void,
): { rowActions: RowActionsConfig; headerActions: HeaderActionsConfig } {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const held = useAppStore((s) => s.perms);
  const rootOrg = useAppStore((s) => s.currentOrg?.id === ROOT_ORG_ID);
  const may = (p: string) => hasPermission(held, p);
  const canChange = may('assets.change_asset') && !rootOrg;

  const setActive = async (rows: ResourceObject[], reload: () => void, active: boolean) => {
    try {
      await http.patch(
        ASSETS,
        rows.map((r) => ({ id: r.id, is_active: active })),
      );
      void message.success(
        t(active ? 'assetList.batch.activated' : 'assetList.batch.disabled', { count: rows.length }),
      );
    } catch (e) {
      void message.error(errorMessage(e, t));
    }
    reload();
  };

  const test = async (row: ResourceObject, reload: () => void) => {
    try {
      const { task } = await http.post<{ task: string }>(`${ASSETS}${row.id}/tasks/`, { action: 'test' });
      window.open(`/ui/ops/celery/task/${task}/log/`, '_blank', 'noopener');
      void message.info(t('assetList.test.started', { name: row.name }));
      await waitForTask(task);
      reload();
      void queryClient.invalidateQueries({ queryKey: ['resource-list'] });
    } catch (e) {
      void message.error(errorMessage(e, t));
    }
  };

  return {
    headerActions: {
      onCreate,
      hasImport: url !== ASSETS,
      bulkUpdateFields: ['platform', 'nodes', 'domain', 'labels', 'is_active', 'comment'],
      batchExtra: [
        {
          key: 'activate',
          label: t('assetList.batch.activate'),
          has: canChange,
          onClick: (rows, reload) => void setActive(rows, reload, true),
        },
        {
          key: 'disable',
          label: t('assetList.batch.disable'),
          has: canChange,
          onClick: (rows, reload) => void setActive(rows, reload, false),
        },
      ],
    },
    rowActions: {
      hasUpdate: false,
      hasClone: false,
      extra: [
        {
          name: 'update',
          title: 'resource.update',
          order: 10,
          has: () => canChange,
          onClick: (row) => navigate(`${pagesOf(row)}/${row.id}/update`),
        },
        {
          name: 'clone',
          title: 'resource.clone',
          order: 30,
          has: () => may('assets.add_asset') && !rootOrg,
          onClick: (row) => navigate(`${pagesOf(row)}/create?clone_from=${row.id}`),
        },
        {
          name: 'test',
          title: 'assetList.test.action',
          order: 40,
          has: () => may('assets.test_assetconnectivity') && !rootOrg,
          onClick: (row, reload) => void test(row, reload),
        },
      ],
    },
  };
}
