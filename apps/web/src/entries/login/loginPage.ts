import { LANGUAGE_NAMES } from '../../lib/i18n/languages.ts';
import type { Language } from '@gatehouse/contract';
import { errorAlert, segmented } from './controls.ts';
import { h } from './dom.ts';
import {
  LOGIN_OTP_START_URL,
  openSettings,
  postJson,
  safeTarget,
  type LoginAnswer,
  type OtpBinding,
} from './loginApi.ts';
import { loginMethodControls } from './loginMethods.ts';
import { mfaStep } from './mfaStep.ts';
import { otpBindStep } from './otpBindStep.ts';
import { loginConfirmStep } from './loginConfirmStep.ts';
import { passwordStep, submitLogin, type PasswordValues } from './passwordStep.ts';
import { language, switchLanguage, t, type LoginKey } from './texts.ts';
import { applyFavicon } from '../../lib/theme.ts';

type Step =
  | { kind: 'password' }
  | { kind: 'mfa'; choices: string[] }
  | { kind: 'bind'; binding: OtpBinding }
  | { kind: 'confirm'; ticketId?: string };

/** The codes an identity provider's callback sends back with (`?error=`, sso/ssoFinish.ts). */
const SSO_ERRORS: Record<string, LoginKey> = {
  sso_failed: 'ssoFailed',
  user_invalid: 'ssoUserInvalid',
  user_not_exist: 'ssoUserNotExist',
  user_inactive: 'ssoUserInactive',
  user_expired: 'ssoUserInactive',
  acl_not_allow: 'ssoAclNotAllow',
  block_login: 'ssoBlocked',
  block_ip: 'ssoBlocked',
  not_bound: 'ssoNotBound',
  slo_failed: 'sloFailed',
};

/**
 * The login page: the password form, then the MFA step or the authenticator binding when the server
 * asks for them, the error alert, and the language switch. It draws itself again on each change of
 * step or language; what was typed in the password form is kept.
 */
export function mountLoginPage(root: HTMLElement): void {
  const next = new URLSearchParams(window.location.search).get('next');
  const values: PasswordValues = { username: '', password: '', auto_login: false };
  let step: Step = { kind: 'password' };
  let title = 'Gatehouse';
  let error: string | undefined;

  const titleEl = h('h3', { class: 'gh-title gh-title-3' });
  const logo = h('img', { src: '/ui/logo.svg', alt: '', width: 40, height: 40 });
  const card = h('div', { class: 'gh-card' });
  const subtitle = h('span', { class: 'gh-secondary' });
  const alertSlot = h('div', {});
  const stepSlot = h('div', {});
  const languages = h('div', { class: 'gh-languages' });
  root.replaceChildren(h('div', { class: 'gh-login-page' }, card));

  card.replaceChildren(
    h(
      'div',
      { class: 'gh-card-body' },
      h('div', { class: 'gh-brand' }, logo, h('div', {}, titleEl, subtitle)),
      alertSlot,
      stepSlot,
      languages,
    ),
  );

  const showError = (msg: string | undefined) => {
    error = msg;
    alertSlot.replaceChildren(...(msg ? [errorAlert(msg)] : []));
  };
  const signedIn = (target: string | undefined) => window.location.assign(safeTarget(target));
  const back = () => {
    showError(undefined);
    go({ kind: 'password' });
  };
  const onAnswer = async (result: LoginAnswer) => {
    if (result.ok) return signedIn(result.next);
    if (result.error === 'mfa_required') return go({ kind: 'mfa', choices: result.data?.choices ?? ['otp'] });
    if (result.error === 'login_confirm_wait') {
      showError(undefined);
      return step.kind === 'confirm' ? undefined : go({ kind: 'confirm', ticketId: result.data?.ticket_id });
    }
    if (result.error === 'mfa_unset') {
      const binding = await postJson<OtpBinding & LoginAnswer>(LOGIN_OTP_START_URL, {});
      if (binding.qr_code) return go({ kind: 'bind', binding });
      return showError(binding.msg ?? result.msg);
    }
    showError(result.msg ?? result.error);
  };

  function drawStep(focus: boolean) {
    const callbacks = { onDone: signedIn, onError: showError, onBack: back };
    const view =
      step.kind === 'mfa'
        ? mfaStep(step.choices, callbacks)
        : step.kind === 'bind'
          ? otpBindStep(step.binding, callbacks)
          : step.kind === 'confirm'
            ? loginConfirmStep({
                ticketId: step.ticketId,
                resubmit: () => submitLogin(values, next),
                onAnswer,
                onError: showError,
                onBack: () => go({ kind: 'password' }),
              })
            : passwordStep({
                values,
                next,
                onAnswer,
                onError: showError,
                methods: loginMethodControls({ t, next, signedIn, showError }),
              });
    stepSlot.replaceChildren(view.el);
    if (focus) view.focus();
  }

  function go(to: Step) {
    step = to;
    drawStep(true);
  }

  function drawTexts() {
    titleEl.textContent = title;
    subtitle.textContent = t('subtitle');
    document.title = `${t('title')} - ${title}`;
    languages.replaceChildren(
      segmented<Language>(
        'language',
        (Object.keys(LANGUAGE_NAMES) as Language[]).map((l) => ({ value: l, label: LANGUAGE_NAMES[l] })),
        language(),
        (l) => void switchLanguage(l).then(redraw),
        { small: true },
      ),
    );
  }

  function redraw() {
    drawTexts();
    drawStep(false);
    showError(error);
  }

  drawTexts();
  drawStep(true);
  const query = new URLSearchParams(window.location.search);
  const ssoError = query.get('error');
  if (ssoError) showError(t(SSO_ERRORS[ssoError] ?? 'ssoFailed'));
  // Back from an identity provider with the MFA step to do (sso/ssoFinish.ts on the server).
  const mfa = query.get('mfa');
  if (mfa === 'unset') void onAnswer({ ok: false, error: 'mfa_unset' });
  else if (mfa) void onAnswer({ ok: false, error: 'mfa_required', data: { choices: mfa.split(',') } });
  // Settings › Interface: title, small logo, login image, favicon and colour, as soon as they load.
  void openSettings().then((open) => {
    const iface = open?.INTERFACE;
    if (!iface) return;
    if (iface.login_title) title = iface.login_title;
    if (iface.logo_logout) logo.setAttribute('src', iface.logo_logout);
    if (iface.login_image) {
      card.classList.add('gh-card-wide');
      card.prepend(h('img', { class: 'gh-login-image', src: iface.login_image, alt: '', width: 492, height: 472 }));
    }
    const primary = iface.theme_info?.colors?.['--color-primary'];
    if (primary && /^#[0-9a-f]{6}$/i.test(primary)) document.documentElement.style.setProperty('--gh-primary', primary);
    applyFavicon(iface.favicon);
    drawTexts();
  });
}
