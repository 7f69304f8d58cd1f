import { randomInt } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ta } from '../authMessages.ts';
import { sendSmsCode } from '../../notifications/sms/smsSender.ts';

/**
 * SMS codes of the sign-in step, sent by the SMS backend of Messages › SMS
 * (`notifications/sms/smsSender.ts`: alibaba, tencent, huawei, cmpp2 or custom). One code per user, valid `VERIFY_CODE_TTL` seconds; a new one at most every
 * 60 s. The code is kept only as long as it is valid and never logged.
 */
export const SMS_RESEND_SECONDS = 60;

const codeKey = (userId: string) => `_SMS_CODE_${userId}`;
const sentKey = (userId: string) => `_SMS_SENT_${userId}`;

export type SmsOutcome = { ok: true } | { ok: false; status: number; msg: string };

export async function sendUserSmsCode(req: FastifyRequest, user: { id: string; phone: string }): Promise<SmsOutcome> {
  const { cache, settings } = req.server.deps;
  if (!(await settings.get('SMS_ENABLED'))) return { ok: false, status: 400, msg: ta(req.lang, 'sms_disabled') };
  if (!user.phone) return { ok: false, status: 400, msg: ta(req.lang, 'sms_no_phone') };
  const wait = await cache.ttl(sentKey(user.id));
  if (wait !== undefined) return { ok: false, status: 429, msg: ta(req.lang, 'sms_wait', { seconds: wait }) };
  await cache.set(sentKey(user.id), 1, SMS_RESEND_SECONDS);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  try {
    await sendSmsCode(req.server.deps.settings, user.phone, code);
  } catch (e) {
    await cache.delete(sentKey(user.id));
    req.log.warn({ err: (e as Error).message }, 'SMS gateway call failed');
    return { ok: false, status: 502, msg: ta(req.lang, 'sms_failed', { reason: (e as Error).message }) };
  }
  await cache.set(codeKey(user.id), code, Number(await settings.get('VERIFY_CODE_TTL')) || 60);
  return { ok: true };
}

/** Checks and consumes the user's SMS code. */
export async function checkSmsCode(req: FastifyRequest, userId: string, code: string): Promise<boolean> {
  const { cache } = req.server.deps;
  const expected = await cache.get<string>(codeKey(userId));
  if (!expected || expected !== code) return false;
  await cache.delete(codeKey(userId));
  return true;
}
