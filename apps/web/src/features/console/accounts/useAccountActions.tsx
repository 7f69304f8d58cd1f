import { useState } from 'react';
import { App, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { hasPermission, ROOT_ORG_ID } from '@gatehouse/contract';
import { useAppStore } from '../../../lib/appStore.ts';
import { errorMessage } from '../../../resource/errorMessage.ts';
import type { RowActionsConfig } from '../../../resource/ResourceList.tsx';
import type { ResourceObject } from '../../../resource/types.ts';
import { taskLogPath, waitForTask } from '../assets/detail/useTaskResult.ts';
import { clearSecrets, startTest } from './accountApi.ts';

/** Which account a dialog is open for. */
export interface AccountDialogs {
  viewing: ResourceObject | null;
  history: ResourceObject | null;
  editing: ResourceObject | null;
  /** The account whose secret is being edited in its row. */
  inline: ResourceObject | null;
  setViewing(a: ResourceObject | null): void;
  setHistory(a: ResourceObject | null): void;
  setEditing(a: ResourceObject | null): void;
  setInline(a: ResourceObject | null): void;
}

export function useAccountDialogs(): AccountDialogs {
  const [viewing, setViewing] = useState<ResourceObject | null>(null);
  const [history, setHistory] = useState<ResourceObject | null>(null);
  const [editing, setEditing] = useState<ResourceObject | null>(null);
  const [inline, setInline] = useState<ResourceObject | null>(null);
  return { viewing, history, editing, inline, setViewing, setHistory, setEditing, setInline };
}

/** The account's connectivity test: opens its task log and waits for the result. */
export function useAccountTest() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return async (ids: string[], reload: () => void) => {
    const tab = window.open('about:blank', '_blank');
    try {
      const { task } = await startTest(ids);
      if (tab) tab.location.href = taskLogPath(task);
      await waitForTask(task);
      void message.success(t('accounts.test.done'));
    } catch (e) {
      tab?.close();
      void message.error(errorMessage(e, t));
    }
    reload();
  };
}

/** Row actions of an account list: view secret, history, edit, inline secret edit, clear, test. */
export function useAccountActions(d: AccountDialogs): RowActionsConfig {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const held = useAppStore((s) => s.perms);
  const rootOrg = useAppStore((s) => s.currentOrg?.id === ROOT_ORG_ID);
  const may = (p: string) => hasPermission(held, p);
  const test = useAccountTest();
  const clear = (row: ResourceObject, reload: () => void) =>
    Modal.confirm({
      title: t('accounts.clear.confirm', { name: row.name }),
      onOk: async () => {
        try {
          await clearSecrets([row.id]);
          void message.success(t('accounts.clear.done'));
        } catch (e) {
          void message.error(errorMessage(e, t));
        }
        reload();
      },
    });
  return {
    hasUpdate: false,
    hasClone: false,
    extra: [
      {
        name: 'view',
        title: 'accounts.action.viewSecret',
        order: 1,
        has: () => may('accounts.view_accountsecret'),
        onClick: (row) => d.setViewing(row),
      },
      {
        name: 'history',
        title: 'accounts.action.history',
        order: 2,
        has: () => may('accounts.view_accountsecret'),
        onClick: (row) => d.setHistory(row),
      },
      {
        name: 'update',
        title: 'resource.update',
        order: 10,
        has: () => may('accounts.change_account') && !rootOrg,
        onClick: (row) => d.setEditing(row),
      },
      {
        name: 'editSecret',
        title: 'accounts.action.editSecret',
        order: 11,
        has: () => may('accounts.change_account') && !rootOrg,
        onClick: (row) => d.setInline(row),
      },
      {
        name: 'clear',
        title: 'accounts.action.clearSecret',
        order: 20,
        has: () => may('accounts.change_account') && !rootOrg,
        onClick: clear,
      },
      {
        name: 'test',
        title: 'accounts.action.test',
        order: 30,
        has: () => may('accounts.verify_account') && !rootOrg,
        onClick: (row, reload) => void test([row.id], reload),
      },
    ],
  };
}
