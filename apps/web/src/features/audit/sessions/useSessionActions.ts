import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../lib/appStore.ts';
import { http } from '../../../lib/http.ts';
import { errorMessage } from '../../../resource/errorMessage.ts';
import type { ResourceObject } from '../../../resource/types.ts';
import { monitorUrl, openPlayer, replayDownloadUrl, replayUrl } from './sessionLinks.ts';

const TASKS = '/api/v1/terminal/tasks';

/**
 * What can be done with a session, for its list rows and its detail: monitor (`can_join` and
 * `terminal.monitor_session`), pause/resume and terminate (`can_terminate` and
 * `terminal.terminate_session`), replay and download (`can_replay` and the replay permissions).
 * The writes go to the task API in the console's current org (the list's rows are of it).
 */
export function useSessionActions() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const perms = useAppStore((s) => s.perms);
  const run = async (action: () => Promise<unknown>, ok: string, done?: () => void) => {
    try {
      await action();
      void message.success(ok);
      done?.();
    } catch (e) {
      void message.error(errorMessage(e, t));
    }
  };
  return {
    may: {
      monitor: (row: ResourceObject) => Boolean(row.can_join) && hasPermission(perms, 'terminal.monitor_session'),
      terminate: (row: ResourceObject) =>
        Boolean(row.can_terminate) && hasPermission(perms, 'terminal.terminate_session'),
      replay: (row: ResourceObject) => Boolean(row.can_replay) && hasPermission(perms, 'terminal.view_sessionreplay'),
      download: (row: ResourceObject) =>
        Boolean(row.can_replay) && hasPermission(perms, 'terminal.download_sessionreplay'),
    },
    monitor: (row: ResourceObject) => openPlayer(monitorUrl(row.id, row.org_id), true),
    replay: (row: ResourceObject) => openPlayer(replayUrl(row.id, row.org_id)),
    download: (row: ResourceObject) => window.open(replayDownloadUrl(row.id, row.org_id), '_self'),
    toggleLock: (row: ResourceObject, done?: () => void) => {
      const lock = !row.is_locked;
      void run(
        () =>
          http.post(`${TASKS}/toggle-lock-session/`, {
            session_id: row.id,
            task_name: lock ? 'lock_session' : 'unlock_session',
          }),
        t(lock ? 'audit.session.paused' : 'audit.session.resumed'),
        done,
      );
    },
    terminate: (row: ResourceObject, done?: () => void) => {
      modal.confirm({
        title: t('audit.session.terminate'),
        content: t('audit.session.terminateConfirm'),
        okButtonProps: { danger: true },
        onOk: () => run(() => http.post(`${TASKS}/kill-session/`, [row.id]), t('audit.session.terminated'), done),
      });
    },
  };
}
