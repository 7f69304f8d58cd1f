import type { Language } from '@gatehouse/contract';
import { catalogue, tr } from '../../platform/i18n/catalogue.ts';
import type notificationsMessages from '../../platform/i18n/locales/en/notifications.json';
import { escapeHtml } from './sanitize.ts';
import { notify, type NotifyDeps } from './notify.ts';

const M = catalogue<typeof notificationsMessages>('notifications');

/**
 * The mail a new user receives (message type `user_created`): the subject, honorific, body and
 * signature of Messages › Email › user created (`EMAIL_CUSTOM_USER_CREATED_*`) when set, each
 * else the built-in text in the user's language. In the custom texts `{username}`, `{name}` and
 * `{url}` (SITE_URL) are replaced; they are plain text, line breaks kept.
 */
export async function notifyUserCreated(
  deps: NotifyDeps,
  user: { id: string; username: string; name: string },
): Promise<void> {
  const s = deps.settings;
  const custom = async (k: string) => String((await s.valueOf(`EMAIL_CUSTOM_USER_CREATED_${k}`)) ?? '');
  const [subject, honorific, body, signature] = await Promise.all(
    ['SUBJECT', 'HONORIFIC', 'BODY', 'SIGNATURE'].map(custom),
  );
  const url = String((await s.valueOf('SITE_URL')) ?? '');
  const params = { username: user.username, name: user.name || user.username, url };
  const fill = (t: string) => t.replace(/\{(username|name|url)\}/g, (_, k: keyof typeof params) => params[k]);
  const para = (t: string) => `<p>${escapeHtml(fill(t)).replace(/\r?\n/g, '<br>')}</p>`;
  const text = (lang: Language) => {
    const esc = { username: escapeHtml(params.username), name: escapeHtml(params.name), url: escapeHtml(url) };
    return {
      subject: subject ? fill(subject) : tr(lang, M.user_created_subject),
      message: [
        honorific ? para(honorific) : `<p>${tr(lang, M.user_created_honorific, esc)}</p>`,
        body ? para(body) : tr(lang, M.user_created_body, esc),
        signature ? para(signature) : `<p>${tr(lang, M.user_created_signature)}</p>`,
      ].join(''),
    };
  };
  await notify(deps, { type: 'user_created', userIds: [user.id], text });
}
