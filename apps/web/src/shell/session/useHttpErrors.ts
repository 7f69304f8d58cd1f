import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../lib/LazyApp.tsx';
import { LOGIN_PATH } from '@gatehouse/contract';
import { HttpError, httpContext } from '../../lib/http.ts';
import { errorAction, ERROR_TOAST_SECONDS } from '../../lib/httpErrors.ts';
import { logout } from '../../app/session.ts';
import { useReverifyStore } from './reverifyStore.ts';

let reloginOpen = false;

/**
 * Installs the console's answers to failed calls: a 401 on the profile goes to the
 * login page, any other 401 asks to log in again (once at a time); a confirm-required 400 opens
 * the re-verification dialog.
 */
export function useHttpErrors(): void {
  const { t } = useTranslation();
  const { modal } = useFeedback();

  useEffect(() => {
    httpContext.confirm = (type) => useReverifyStore.getState().ask(type);
    httpContext.onError = (err) => {
      const action = errorAction(err.status, err.url, err.data, err.message);
      if (action.kind === 'login') {
        window.location.assign(
          `${LOGIN_PATH}?next=${encodeURIComponent(window.location.pathname + window.location.search)}`,
        );
        return;
      }
      if (action.kind !== 'relogin' || reloginOpen) return;
      reloginOpen = true;
      modal.confirm({
        title: t('session.loginRequired.title'),
        content: t('session.loginRequired.content'),
        okText: t('session.relogin'),
        cancelText: t('session.cancel'),
        okButtonProps: { 'data-testid': 'relogin-ok' } as never,
        onOk: () => {
          try {
            logout();
          } catch {
            /* leaving */
          }
        },
        afterClose: () => {
          reloginOpen = false;
        },
      });
    };
    return () => {
      httpContext.onError = undefined;
      httpContext.confirm = undefined;
    };
  }, [modal, t]);
}

/** The error toast of the catalogue, for pages that show failed calls as toasts. */
export function useFlashError(): (err: unknown) => void {
  const { t } = useTranslation();
  const { message } = useFeedback();
  return useCallback(
    (err: unknown) => {
      if (!(err instanceof HttpError)) {
        void message.error({
          content: err instanceof Error ? err.message : String(err),
          duration: ERROR_TOAST_SECONDS,
        });
        return;
      }
      const action = errorAction(err.status, err.url, err.data, err.message);
      if (action.kind === 'toast')
        void message.error({ content: action.message ?? t(action.key!), duration: ERROR_TOAST_SECONDS });
      if (action.kind === 'trustedDomains')
        void message.error({ content: t('session.error.trustedDomains'), duration: ERROR_TOAST_SECONDS });
    },
    [message, t],
  );
}
