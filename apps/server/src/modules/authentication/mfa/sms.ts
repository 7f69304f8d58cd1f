import { randomInt } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ta } from '../authMessages.ts';

/**
 * SMS codes through a configurable HTTP gateway (`SMS_BACKEND` = custom): `CUSTOM_SMS_URL`,
 * `CUSTOM_SMS_REQUEST_METHOD` (get: parameters in the query string; post: a JSON body) and
 * `CUSTOM_SMS_API_PARAMS`, whose values may hold `{code}` and `{phone}` (`{phone_numbers}` too,
 * JumpServer's name). One code per user, valid `VERIFY_CODE_TTL` seconds; a new one at most every
 * 60 s. The code is kept only as long as it is valid and never logged.
 */
export const SMS_RESEND_SECONDS = 60;

const codeKey = (userId: string) => `_SMS_CODE_${userId}`;
const sentKey = (userId: string) => `_SMS_SENT_${userId}`;

export type SmsOutcome = { ok: true } | { ok: false; status: number; msg: string };

function fill(template: string, code: string, phone: string): string {
  return template.replaceAll('{code}', code).replaceAll('{phone_numbers}', phone).replaceAll('{phone}', phone);
}

async function callGateway(req: FastifyRequest, phone: string, code: string): Promise<void> {
  const s = req.server.deps.settings;
  const url = String(await s.get('CUSTOM_SMS_URL'));
  const method = String(await s.get('CUSTOM_SMS_REQUEST_METHOD')).toLowerCase() === 'get' ? 'GET' : 'POST';
  const params = (await s.get('CUSTOM_SMS_API_PARAMS')) as Record<string, unknown>;
  if (!url) throw new Error('no gateway URL');
  const values = Object.fromEntries(Object.entries(params ?? {}).map(([k, v]) => [k, fill(String(v), code, phone)]));
  const target = new URL(url);
  const init: RequestInit = { method, signal: AbortSignal.timeout(10_000), redirect: 'error' };
  if (method === 'GET') for (const [k, v] of Object.entries(values)) target.searchParams.set(k, v);
  else {
    init.body = JSON.stringify(values);
    init.headers = { 'Content-Type': 'application/json' };
  }
  const res = await fetch(target, init);
  await res.arrayBuffer().catch(() => undefined);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
}

export async function sendSmsCode(req: FastifyRequest, user: { id: string; phone: string }): Promise<SmsOutcome> {
  const { cache, settings } = req.server.deps;
  if (!(await settings.get('SMS_ENABLED'))) return { ok: false, status: 400, msg: ta(req.lang, 'sms_disabled') };
  if (!user.phone) return { ok: false, status: 400, msg: ta(req.lang, 'sms_no_phone') };
  const wait = await cache.ttl(sentKey(user.id));
  if (wait !== undefined) return { ok: false, status: 429, msg: ta(req.lang, 'sms_wait', { seconds: wait }) };
  await cache.set(sentKey(user.id), 1, SMS_RESEND_SECONDS);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  try {
    await callGateway(req, user.phone, code);
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
