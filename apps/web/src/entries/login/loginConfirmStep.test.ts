import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOGIN_CONFIRM_POLL_MS, LOGIN_CONFIRM_STATUS_URL, loginConfirmStep } from './loginConfirmStep.ts';
import { loadTexts } from './texts.ts';

/**
 * The waiting step of a sign-in under review, in jsdom with the server replaced by a fetch stub (the
 * browser test apps/web/e2e/tickets.e2e.test.ts waits on a real one): it polls the status, sends the
 * credentials again once approved, goes back with the message when refused, and Cancel closes.
 */
let answers: unknown[];
const calls: { url: string; method: string }[] = [];

beforeEach(async () => {
  await loadTexts('en');
  vi.useFakeTimers();
  answers = [];
  calls.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, method: init?.method ?? 'GET' });
      return new Response(JSON.stringify(answers.shift() ?? { error: 'login_confirm_wait', msg: 'wait' }));
    }),
  );
  document.body.innerHTML = '';
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function mount() {
  const cb = {
    resubmit: vi.fn(async () => ({ ok: true, next: '/ui/' })),
    onAnswer: vi.fn(async () => undefined),
    onError: vi.fn(),
    onBack: vi.fn(),
  };
  const step = loginConfirmStep({ ticketId: 'abcdef12-0000', ...cb });
  document.body.append(step.el);
  return cb;
}

describe('the login confirm step', () => {
  it('waits, then sends the credentials again once approved', async () => {
    answers = [{ error: 'login_confirm_wait', msg: 'wait' }, { msg: 'ok' }];
    const cb = mount();
    expect(document.body.textContent).toContain('Waiting for approval');
    expect(document.body.textContent).toContain('Ticket abcdef12');
    await vi.advanceTimersByTimeAsync(LOGIN_CONFIRM_POLL_MS);
    expect(cb.resubmit).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(LOGIN_CONFIRM_POLL_MS);
    expect(cb.resubmit).toHaveBeenCalledTimes(1);
    expect(cb.onAnswer).toHaveBeenCalledWith({ ok: true, next: '/ui/' });
    expect(calls.every((c) => c.url === LOGIN_CONFIRM_STATUS_URL && c.method === 'GET')).toBe(true);
    // Decided: no more polling.
    await vi.advanceTimersByTimeAsync(3 * LOGIN_CONFIRM_POLL_MS);
    expect(calls).toHaveLength(2);
  });

  it('goes back to the password form with the message when the ticket is rejected', async () => {
    answers = [{ error: 'login_confirm_error', msg: 'Login confirm ticket was rejected' }];
    const cb = mount();
    await vi.advanceTimersByTimeAsync(LOGIN_CONFIRM_POLL_MS);
    expect(cb.onBack).toHaveBeenCalled();
    expect(cb.onError).toHaveBeenCalledWith('Login confirm ticket was rejected');
    expect(cb.resubmit).not.toHaveBeenCalled();
  });

  it('closes the ticket on Cancel and stops asking', async () => {
    const cb = mount();
    (document.querySelector('button') as HTMLButtonElement).click();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual([{ url: LOGIN_CONFIRM_STATUS_URL, method: 'DELETE' }]);
    expect(cb.onBack).toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(3 * LOGIN_CONFIRM_POLL_MS);
    expect(calls).toHaveLength(1);
  });
});
