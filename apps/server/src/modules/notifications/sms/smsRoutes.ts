import { randomInt } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { settingFields } from '@gatehouse/contract';
import { ApiError } from '../../../http/errors.ts';
import { shape } from '../../../resource/describe.ts';
import { decodeSecretField } from '../../../resource/secretFields.ts';
import { catalogue, tr } from '../../../platform/i18n/catalogue.ts';
import type notificationsMessages from '../../../platform/i18n/locales/en/notifications.json';
import { isSecret, validateCategory } from '../../settings/settingValidate.ts';
import { isSmsBackend, sendSmsCode, SMS_BACKENDS } from './smsSender.ts';

const M = catalogue<typeof notificationsMessages>('notifications');

/**
 * Messages › SMS tools (`settings.change_sms`): `GET /api/v1/settings/sms/backend/` lists the
 * backends, `POST /api/v1/settings/sms/<backend>/testing/` sends a code through that backend with
 * the form's values (unsaved ones included, an empty secret keeps the stored one) to
 * `SMS_TEST_PHONE`, answering `{msg}` or a 400 `{msg}` with the provider's refusal.
 */
const PERM = { perm: 'settings.change_sms' };
const PHONE = /^\+?[0-9]{5,20}$/;

async function testing(req: FastifyRequest, reply: FastifyReply) {
  const backend = (req.params as { backend: string }).backend;
  if (!isSmsBackend(backend))
    throw new ApiError(404, { detail: tr(req.lang, M.sms_unknown_backend, { value: backend }) });
  const body = req.body ?? {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, {});
  const form = { ...(body as Record<string, unknown>) };
  const fields = { ...settingFields(backend), SMS_TEST_PHONE: settingFields('sms').SMS_TEST_PHONE! };
  for (const [name, f] of Object.entries(fields))
    if (isSecret(f) && name in form) form[name] = await decodeSecretField(req, form[name], name);
  const checked = validateCategory(fields, form, true, req.lang);
  if (!checked.ok) throw new ApiError(400, checked.errors);
  const settings = req.server.deps.settings;
  const phone = String(checked.values.SMS_TEST_PHONE ?? (await settings.valueOf('SMS_TEST_PHONE')) ?? '');
  if (!PHONE.test(phone)) throw new ApiError(400, { SMS_TEST_PHONE: [tr(req.lang, M.sms_bad_phone)] });
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  try {
    await sendSmsCode(settings, phone, code, { backend, over: checked.values });
  } catch (e) {
    return reply.code(400).send({ msg: tr(req.lang, M.sms_test_failed, { error: (e as Error).message }) });
  }
  return { msg: tr(req.lang, M.sms_test_sent, { phone }) };
}

export function registerSmsRoutes(app: FastifyInstance): void {
  app.get(
    '/api/v1/settings/sms/backend/',
    { config: { ...PERM, describe: shape('message_backend', { name: 'string', label: 'string' }) } },
    async (req) =>
      Object.keys(SMS_BACKENDS).map((name) => ({ name, label: tr(req.lang, M[`sms_${name}` as 'sms_custom']) })),
  );
  app.post('/api/v1/settings/sms/:backend/testing/', { config: PERM }, testing);
}
