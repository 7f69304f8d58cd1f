import { useCallback, useState } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from './errorMessage.ts';

export interface ActionRunner {
  /** True while an action runs (for the button's spinner). */
  busy: boolean;
  /** The last failure's message, when the caller shows it inline; null otherwise. */
  error: string | null;
  setError(error: string | null): void;
  /** Runs one write; says `ok` on success; resolves whether it succeeded. */
  run(action: () => Promise<unknown>, ok?: string): Promise<boolean>;
}

/**
 * One write from a button or a dialog: the busy flag, the success toast, and the failure told in
 * the person's language (a toast, or kept in `error` for an inline alert in a dialog).
 */
export function useAction({ inlineError = false }: { inlineError?: boolean } = {}): ActionRunner {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(
    async (action: () => Promise<unknown>, ok?: string) => {
      setBusy(true);
      setError(null);
      try {
        await action();
        if (ok) void message.success(ok);
        return true;
      } catch (e) {
        const text = errorMessage(e, t);
        if (inlineError) setError(text);
        else void message.error(text);
        return false;
      } finally {
        setBusy(false);
      }
    },
    [inlineError, message, t],
  );
  return { busy, error, setError, run };
}
