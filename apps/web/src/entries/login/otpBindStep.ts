import CheckOutlined from '@ant-design/icons-svg/es/asn/CheckOutlined';
import CopyOutlined from '@ant-design/icons-svg/es/asn/CopyOutlined';
import { codeForm, type StepCallbacks } from './codeForm.ts';
import { h, icon } from './dom.ts';
import { LOGIN_OTP_BIND_URL, type OtpBinding } from './loginApi.ts';
import { t } from './texts.ts';

/** MFA is required but no authenticator is bound: bind one with its first code, which signs in. */
export function otpBindStep(binding: OtpBinding, callbacks: StepCallbacks): { el: HTMLElement; focus: () => void } {
  const { form, head, focus } = codeForm({
    testId: 'otp-bind-step',
    inputId: 'code',
    url: LOGIN_OTP_BIND_URL,
    body: (code) => ({ code }),
    submitText: t('otpBindSubmit'),
    callbacks,
  });
  const copy = h('button', { type: 'button', class: 'gh-copy', 'aria-label': 'copy' }, icon(CopyOutlined));
  copy.addEventListener('click', () => {
    void navigator.clipboard?.writeText(binding.secret).then(() => {
      copy.replaceChildren(icon(CheckOutlined));
      setTimeout(() => copy.replaceChildren(icon(CopyOutlined)), 3000);
    });
  });
  head.append(
    h('h5', { class: 'gh-title gh-title-5' }, t('otpBindTitle')),
    h('div', { class: 'gh-paragraph gh-secondary' }, t('otpBindHint')),
    h('div', { class: 'gh-center' }, h('img', { src: binding.qr_code, alt: t('otpQrAlt'), width: 200, height: 200 })),
    h(
      'div',
      { class: 'gh-paragraph gh-secondary gh-center' },
      `${t('otpSecret')} `,
      h('span', { class: 'gh-code' }, h('code', { 'data-testid': 'otp-secret' }, binding.secret), copy),
    ),
  );
  return { el: form, focus };
}
