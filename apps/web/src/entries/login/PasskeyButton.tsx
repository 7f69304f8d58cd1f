import { useState } from 'react';
import { Button } from 'antd';
import { KeyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { signInWithPasskey } from './passkeyLogin.ts';

/** "Sign in with a passkey" under the password form (shown when AUTH_PASSKEY is on). */
export function PasskeyButton({ next, onError }: { next: string | null; onError: (msg: string) => void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const click = async () => {
    setBusy(true);
    try {
      const result = await signInWithPasskey(next);
      if (result.ok) return window.location.assign(result.next ?? '/ui/');
      onError(result.msg ?? t('login.passkeyFailed'));
    } catch {
      // The user closed the browser's dialog, or no passkey of this site is on the device.
      onError(t('login.passkeyFailed'));
    }
    setBusy(false);
  };
  return (
    <Button
      block
      size="large"
      icon={<KeyOutlined />}
      loading={busy}
      onClick={() => void click()}
      data-testid="passkey-login"
      style={{ marginTop: 12 }}
    >
      {t('login.passkey')}
    </Button>
  );
}
