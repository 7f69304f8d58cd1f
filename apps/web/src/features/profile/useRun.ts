import { useState } from 'react';
import { App } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { HttpError } from '../../lib/http.ts';
import { extractMessage } from '../../lib/httpErrors.ts';

/** Runs a page action: busy flag, the error as a message, then the list `key` is read again. */
export function useRun(key: readonly unknown[]) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await action();
      await queryClient.invalidateQueries({ queryKey: key });
    } catch (e) {
      void message.error(e instanceof HttpError ? extractMessage(e.data) || t('session.error.unknown') : String(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}
