import LoadingOutlined from '@ant-design/icons-svg/es/asn/LoadingOutlined';
import { CSRF_HEADER } from '@gatehouse/contract';
import { csrfToken } from '../../lib/cookies.ts';
import { button } from './controls.ts';
import { h, icon } from './dom.ts';
import type { LoginAnswer } from './loginApi.ts';
import { t } from './texts.ts';

/**
 * A sign-in held by a login rule with review: the page says it waits for approval and asks the
 * server every few seconds (`login-confirm-ticket/status/`); once approved it sends the
 * credentials again (`resubmit`), which signs in; a rejected or closed ticket goes back to the
 * password form with the server's message. Cancel closes the ticket.
 */
export const LOGIN_CONFIRM_STATUS_URL = '/api/v1/authentication/login-confirm-ticket/status/';
export const LOGIN_CONFIRM_POLL_MS = 3000;

export function loginConfirmStep(opts: {
  ticketId: string | undefined;
  resubmit: () => Promise<LoginAnswer>;
  onAnswer: (answer: LoginAnswer) => Promise<void>;
  onError: (msg: string | undefined) => void;
  onBack: () => void;
}): { el: HTMLElement; focus: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
  };
  const poll = async () => {
    if (stopped) return;
    if (!el.isConnected) return stop();
    try {
      const res = await fetch(LOGIN_CONFIRM_STATUS_URL, {
        credentials: 'same-origin',
        headers: { Accept: 'application/json' },
      });
      const body = (await res.json()) as LoginAnswer;
      if (stopped) return;
      if ((body as { msg?: string }).msg === 'ok' && !body.error) {
        stop();
        return void (await opts.onAnswer(await opts.resubmit()));
      }
      if (body.error !== 'login_confirm_wait') {
        stop();
        opts.onBack();
        return opts.onError(body.msg ?? body.error);
      }
    } catch {
      // The network may come back: keep asking.
    }
    timer = setTimeout(() => void poll(), LOGIN_CONFIRM_POLL_MS);
  };
  const cancel = button(t('confirmCancel'), {
    block: true,
    large: true,
    onClick: () => {
      stop();
      void fetch(LOGIN_CONFIRM_STATUS_URL, {
        method: 'DELETE',
        credentials: 'same-origin',
        headers: { Accept: 'application/json', [CSRF_HEADER]: csrfToken() ?? '' },
      }).finally(opts.onBack);
    },
  });
  const el = h(
    'div',
    { 'data-testid': 'login-confirm-step' },
    h('h5', { class: 'gh-title gh-title-5' }, t('confirmTitle')),
    h('div', { class: 'gh-center gh-confirm-spin' }, icon(LoadingOutlined, 'gh-spin')),
    h('div', { class: 'gh-paragraph gh-secondary' }, t('confirmHint')),
    opts.ticketId
      ? h('div', { class: 'gh-paragraph gh-secondary' }, t('confirmTicket', { id: opts.ticketId.slice(0, 8) }))
      : null,
    cancel.el,
  );
  timer = setTimeout(() => void poll(), LOGIN_CONFIRM_POLL_MS);
  return { el, focus: () => cancel.el.focus() };
}
