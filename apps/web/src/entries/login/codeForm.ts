import { OTP_LENGTH } from '@gatehouse/contract';
import SafetyOutlined from '@ant-design/icons-svg/es/asn/SafetyOutlined';
import { button, formItem, input, type Button } from './controls.ts';
import { h } from './dom.ts';
import { postJson, type LoginAnswer } from './loginApi.ts';
import { t } from './texts.ts';

export interface StepCallbacks {
  onDone: (next: string | undefined) => void;
  onError: (msg: string | undefined) => void;
  onBack: () => void;
}

/**
 * A form that sends a 6-digit code to a login step: the length rule ('MFA Error, please check'),
 * the post, and the outcome: signed in (go to `next`) or the server's message. `extra` sits right of
 * the input (the SMS step's send button).
 */
export function codeForm(opts: {
  testId: string;
  inputId: string;
  url: string;
  body: (code: string) => unknown;
  submitText: string;
  callbacks: StepCallbacks;
  extra?: HTMLElement;
}): { form: HTMLFormElement; head: HTMLElement; focus: () => void } {
  const { wrapper, input: field } = input(opts.inputId, SafetyOutlined, {
    name: 'code',
    autocomplete: 'one-time-code',
    inputmode: 'numeric',
    maxlength: OTP_LENGTH,
    type: 'text',
  });
  const control = opts.extra ? h('div', { class: 'gh-compact' }, wrapper, opts.extra) : wrapper;
  const item = formItem(t('mfaCode'), opts.inputId, control);
  const submit: Button = button(opts.submitText, { type: 'primary', submit: true, large: true, block: true });
  const back = button(t('backToLogin'), { type: 'link', block: true, onClick: opts.callbacks.onBack });
  const head = h('div', {});
  const form = h('form', { 'data-testid': opts.testId, novalidate: true }, head, item.el, submit.el, back.el);
  let busy = false;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (busy) return;
    const value = field.value.trim();
    if (value.length !== OTP_LENGTH) return opts.callbacks.onError(t('mfaCodeError'));
    busy = true;
    submit.setBusy(true);
    opts.callbacks.onError(undefined);
    postJson<LoginAnswer>(opts.url, opts.body(value))
      .then((r) => {
        if (r.ok) return opts.callbacks.onDone(r.next);
        opts.callbacks.onError(r.msg ?? r.error);
        busy = false;
        submit.setBusy(false);
      })
      .catch(() => {
        opts.callbacks.onError(t('networkError'));
        busy = false;
        submit.setBusy(false);
      });
  });
  return { form, head, focus: () => field.focus() };
}
