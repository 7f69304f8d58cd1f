import { button, segmented } from './controls.ts';
import { codeForm, type StepCallbacks } from './codeForm.ts';
import { h } from './dom.ts';
import { LOGIN_MFA_URL, MFA_SEND_CODE_URL, SMS_RESEND_SECONDS, postJson } from './loginApi.ts';
import { t, type LoginKey } from './texts.ts';

const MFA_LABELS: Record<string, LoginKey> = { otp: 'mfaTypeOtp', sms: 'mfaTypeSms', otp_radius: 'mfaTypeRadius' };

/** The second sign-in step: a 6-digit code from the authenticator app, one sent by SMS, or a RADIUS token's. */
export function mfaStep(choices: string[], callbacks: StepCallbacks): { el: HTMLElement; focus: () => void } {
  let type = choices[0] ?? 'otp';
  let wait = 0;
  let timer: ReturnType<typeof setInterval> | undefined;

  const send = button(t('sendCode'), { large: true, onClick: () => void sendCode() });
  const showWait = () => {
    send.setText(wait > 0 ? t('resendIn', { seconds: wait }) : t('sendCode'));
    send.setDisabled(wait > 0);
  };
  const sendCode = async () => {
    callbacks.onError(undefined);
    wait = SMS_RESEND_SECONDS;
    showWait();
    clearInterval(timer);
    timer = setInterval(() => {
      wait -= 1;
      showWait();
      if (wait <= 0) clearInterval(timer);
    }, 1000);
    try {
      const r = await postJson<{ error?: string }>(MFA_SEND_CODE_URL, { type: 'sms' });
      if (r.error) callbacks.onError(r.error);
    } catch {
      callbacks.onError(t('networkError'));
    }
  };

  const { form, head, focus } = codeForm({
    testId: 'mfa-step',
    inputId: 'mfa-code',
    url: LOGIN_MFA_URL,
    body: (code) => ({ mfa_type: type, code }),
    submitText: t('mfaSubmit'),
    callbacks,
    extra: send.el,
  });
  const hint = h('div', { class: 'gh-paragraph gh-secondary' });
  const drawType = () => {
    hint.textContent = t(type === 'sms' ? 'smsHint' : type === 'otp_radius' ? 'radiusHint' : 'mfaHint');
    send.el.hidden = type !== 'sms';
    form.querySelector('.gh-compact')?.classList.toggle('gh-compact-single', type !== 'sms');
  };
  head.append(h('h5', { class: 'gh-title gh-title-5' }, t('mfaTitle')));
  if (choices.length > 1)
    head.append(
      h(
        'div',
        { class: 'gh-form-item' },
        segmented(
          'mfa_type',
          choices.map((c) => ({ value: c, label: t(MFA_LABELS[c] ?? 'mfaTypeOtp') })),
          type,
          (v) => {
            type = v;
            drawType();
          },
          { block: true },
        ),
      ),
    );
  head.append(hint);
  drawType();
  return { el: form, focus };
}
