import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { settingFields } from '@gatehouse/contract';
import { ApiError } from '../../../http/errors.ts';
import { decodeSecretField } from '../../../resource/secretFields.ts';
import { catalogue, tr } from '../../../platform/i18n/catalogue.ts';
import type notificationsMessages from '../../../platform/i18n/locales/en/notifications.json';
import { validateCategory } from '../../settings/settingValidate.ts';
import { loadSmtpConfig, sendMail } from './smtp.ts';

const M = catalogue<typeof notificationsMessages>('notifications');

/**
 * The test button of Messages › Email (`POST /api/v1/settings/mail/testing/`,
 * `settings.change_email`): sends a mail at once, with the form's unsaved values (checked like a
 * save; an empty password keeps the stored one) over the stored settings, to EMAIL_RECIPIENT, or
 * else the sender. Answers `{msg}`; the server's refusal is a 400 `{msg}` naming it.
 */
const EMAIL_RE = /^[^\s@<>]+@[^\s@<>]+$/;

async function testMail(req: FastifyRequest, reply: FastifyReply) {
  const body = req.body ?? {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, {});
  const form = { ...(body as Record<string, unknown>) };
  if ('EMAIL_HOST_PASSWORD' in form)
    form.EMAIL_HOST_PASSWORD = await decodeSecretField(req, form.EMAIL_HOST_PASSWORD, 'EMAIL_HOST_PASSWORD');
  const checked = validateCategory(settingFields('email'), form, true, req.lang);
  if (!checked.ok) throw new ApiError(400, checked.errors);
  const cfg = await loadSmtpConfig(req.server.deps.settings, checked.values);
  if (!cfg.host) throw new ApiError(400, { EMAIL_HOST: [tr(req.lang, M.mail_no_host)] });
  const to =
    String(
      (checked.values.EMAIL_RECIPIENT as string | undefined) ??
        (await req.server.deps.settings.valueOf('EMAIL_RECIPIENT')) ??
        '',
    ) || cfg.from;
  if (!to) throw new ApiError(400, { EMAIL_RECIPIENT: [tr(req.lang, M.mail_no_recipient)] });
  if (!EMAIL_RE.test(to))
    throw new ApiError(400, { EMAIL_RECIPIENT: [tr(req.lang, M.mail_bad_recipient, { value: to })] });
  try {
    await sendMail(cfg, { to, subject: tr(req.lang, M.mail_test_subject), html: tr(req.lang, M.mail_test_body) });
  } catch (e) {
    return reply.code(400).send({ msg: tr(req.lang, M.mail_test_failed, { error: (e as Error).message }) });
  }
  return { msg: tr(req.lang, M.mail_test_sent, { to }) };
}

export function registerMailRoutes(app: FastifyInstance): void {
  app.post('/api/v1/settings/mail/testing/', { config: { perm: 'settings.change_email' } }, testMail);
}
