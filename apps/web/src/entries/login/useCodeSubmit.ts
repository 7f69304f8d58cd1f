import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OTP_LENGTH } from '@gatehouse/contract';
import { postJson, type LoginAnswer } from './loginApi.ts';

/**
 * Submitting a 6-digit code to a login step: the length rule ('MFA Error, please
 * check'), the post, and the outcome — signed in (go to `next`) or the server's message.
 */
export function useCodeSubmit(
  url: string,
  body: (code: string) => unknown,
  onDone: (next: string) => void,
  onError: (msg: string | undefined) => void,
): { busy: boolean; submit: (values: { code: string }) => Promise<void> } {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const submit = async ({ code }: { code: string }) => {
    const value = (code ?? '').trim();
    if (value.length !== OTP_LENGTH) return onError(t('login.mfaCodeError'));
    setBusy(true);
    onError(undefined);
    try {
      const r = await postJson<LoginAnswer>(url, body(value));
      if (r.ok) return onDone(r.next ?? '/ui/');
      onError(r.msg ?? r.error);
    } catch {
      onError(t('login.networkError'));
    }
    setBusy(false);
  };
  return { busy, submit };
}
