import KeyOutlined from '@ant-design/icons-svg/es/asn/KeyOutlined';
import { button } from './controls.ts';
import { icon } from './dom.ts';
import { openSettings } from './loginApi.ts';
import { addLoginMethod } from './loginMethods.ts';

/**
 * "Sign in with a passkey" under the password form, shown when the server has AUTH_PASSKEY on.
 * The WebAuthn code (passkeyLogin.ts and @simplewebauthn/browser) loads on the first click, so the
 * page's first load stays small.
 */
addLoginMethod(({ t, next, signedIn, showError }) => {
  const b = button(t('passkey'), { large: true, block: true, onClick: () => void signIn() });
  b.el.prepend(icon(KeyOutlined));
  b.el.dataset.testid = 'passkey-login';
  b.el.hidden = true;
  void openSettings().then((s) => (b.el.hidden = !s?.AUTH_PASSKEY));

  async function signIn() {
    b.setBusy(true);
    showError(undefined);
    try {
      const { signInWithPasskey } = await import('./passkeyLogin.ts');
      const result = await signInWithPasskey(next);
      if (result.ok) return signedIn(result.next);
      showError(result.msg ?? t('passkeyFailed'));
    } catch {
      // The user closed the browser's dialog, or no passkey of this site is on the device.
      showError(t('passkeyFailed'));
    }
    b.setBusy(false);
  }
  return b.el;
});
