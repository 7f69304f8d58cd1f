import { h } from '../login/dom.ts';
import { api, ApiFailure } from './api.ts';
import { mountMonitor } from './monitorPage.ts';
import { t } from './texts.ts';

/**
 * The joiner's page of a session sharing (`/luna/share/<sharing id>/`, the link its owner sent):
 * asks for the verify code, which `POST session-join-records/` checks (server:
 * modules/terminal/sharing/sharingRoutes.ts), then shows the session through the monitor page
 * with the join record, read-only or writable as the sharing says. The code never goes in a URL.
 */
export function mountShare(root: HTMLElement, sharingId: string): void {
  const input = h('input', {
    class: 'pl-code',
    type: 'text',
    autocomplete: 'off',
    spellcheck: 'false',
    maxlength: '16',
    'aria-label': t('share_code'),
    placeholder: t('share_code'),
    'data-testid': 'share-code',
  }) as HTMLInputElement;
  const submit = h('button', { class: 'pl-btn primary', type: 'submit', 'data-testid': 'share-join' }, t('share_join'));
  const error = h('div', { class: 'pl-status error', role: 'alert', 'data-testid': 'share-error' });
  const form = h(
    'form',
    { class: 'pl-share' },
    h('h1', {}, t('title_share')),
    h('p', {}, t('share_intro')),
    input,
    submit,
    error,
  ) as HTMLFormElement;
  root.replaceChildren(h('div', { class: 'pl-share-page' }, form));
  document.title = t('title_share');
  input.focus();
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const code = input.value.trim();
    if (!code) {
      error.textContent = t('share_code_required');
      return;
    }
    submit.disabled = true;
    error.textContent = '';
    void api<{ id: string }>('/api/v1/terminal/session-join-records/', {
      method: 'POST',
      body: { sharing: sharingId, verify_code: code },
    })
      .then((record) => {
        root.replaceChildren();
        mountMonitor(root, '', { joinRecordId: record.id });
      })
      .catch((err: unknown) => {
        submit.disabled = false;
        error.textContent = err instanceof ApiFailure ? err.message : t('action_failed', { error: String(err) });
        input.select();
      });
  });
}
