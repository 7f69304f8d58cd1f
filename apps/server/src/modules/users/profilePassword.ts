import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Language } from '@gatehouse/contract';
import { ApiError, validationError } from '../../http/errors.ts';
import { t } from '../../http/messages.ts';
import { requestPerms } from '../../http/permissions.ts';
import { endCredentials } from '../../http/bearerTokens.ts';
import { countedPasswordCheck, loginPolicy } from '../authentication/passwordLogin.ts';
import { hashPassword, verifyPassword } from '../../platform/crypto/password.ts';
import { setUserPassword } from './setPassword.ts';
import { nowIso } from '../../platform/db/schema.ts';
import { decryptSecret } from '../authentication/browserKeys.ts';
import { loadMfaUser, mfaForcedBySetting } from '../authentication/mfa/mfaUser.ts';
import { notifyUser } from '../notifications/systemMessages.ts';
import { historyMessage, isRecentPassword } from './passwordHistory.ts';
import { checkPasswordRules } from './passwordRules.ts';
import { buildProfile } from './profile.ts';
import { findActiveUser, findUserWithPassword } from '../authentication/userLookup.ts';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type usersMessages from '../../platform/i18n/locales/en/users.json';
import { shape } from '../../resource/describe.ts';

/**
 * The signed-in user's own password and profile flags:
 * - `GET|PUT|PATCH /api/v1/users/profile/password/` `{old_password, new_password, new_password_again}`
 *   (each plain or encrypted, the JumpServer API): rules and history checked; other sessions
 *   of the user end; a site message tells the user.
 * - `PUT|PATCH /api/v1/users/profile/` the writable profile fields:
 *   `is_first_login`, `phone`, `wechat`, `comment`, `mfa_level` (kept at 2 when MFA is forced).
 */
const MESSAGES = catalogue<typeof usersMessages>('users');

const tm = (lang: Language, key: keyof typeof MESSAGES, params: Record<string, string> = {}) =>
  MESSAGES[key][lang].replace(/\{(\w+)\}/g, (m, n: string) => params[n] ?? m);

interface PasswordBody {
  old_password?: unknown;
  new_password?: unknown;
  new_password_again?: unknown;
}

async function secretField(req: FastifyRequest, body: PasswordBody, name: keyof PasswordBody): Promise<string> {
  const v = body[name];
  return typeof v === 'string' && v ? decryptSecret(req, v, name) : '';
}

async function changePassword(req: FastifyRequest<{ Body: PasswordBody }>) {
  const user = req.user!;
  if (user.source !== 'local') throw new ApiError(400, { detail: tm(req.lang, 'not_local'), code: 'not_local_user' });
  const body = req.body ?? {};
  const oldPassword = await secretField(req, body, 'old_password');
  const newPassword = await secretField(req, body, 'new_password');
  const again = await secretField(req, body, 'new_password_again');
  const required: Record<string, string[]> = {};
  for (const [k, v] of [
    ['old_password', oldPassword],
    ['new_password', newPassword],
    ['new_password_again', again],
  ] as const) {
    if (!v) required[k] = [t(req.lang, 'field_required')];
  }
  if (Object.keys(required).length) throw validationError(required);

  const stored = (await findUserWithPassword(req.db, user.username))!;
  // Guessing the old password with a stolen session is a sign-in attempt: it counts towards the lock.
  const policy = await loginPolicy(req);
  const checked = await countedPasswordCheck(req, user.username, policy, () =>
    verifyPassword(oldPassword, stored.password),
  );
  if (!checked.ok)
    throw validationError({
      old_password: [
        checked.blocked
          ? t(req.lang, 'block_login', { minutes: policy.limitMinutes })
          : tm(req.lang, 'old_password_error'),
      ],
    });
  if (newPassword !== again) throw validationError({ new_password_again: [tm(req.lang, 'inconsistent')] });
  const ruleError = await checkPasswordRules(
    req.server.deps.settings,
    newPassword,
    req.lang,
    (await requestPerms(req)).isOrgAdmin,
  );
  if (ruleError) throw validationError({ new_password: [ruleError] });
  if (await isRecentPassword(req, user.id, stored.password, newPassword)) {
    const n = Number(await req.server.deps.settings.get('OLD_PASSWORD_HISTORY_LIMIT_COUNT'));
    throw validationError({ new_password: [historyMessage(req.lang, n)] });
  }

  const now = nowIso();
  const hash = await hashPassword(newPassword);
  await req.db.transaction().execute(async (trx) => {
    if (stored.password)
      await trx
        .insertInto('users_userpasswordhistory')
        .values({ id: randomUUID(), user_id: user.id, password: stored.password, date_created: now })
        .execute();
    await setUserPassword(
      trx,
      req,
      user.id,
      { hash },
      { is_first_login: false, need_update_password: false, date_updated: now, updated_by: user.username },
    );
    // Sessions and bearer tokens opened with the old password end; this session stays.
    await endCredentials(req.server.deps, trx, user.id, req.session?.id);
  });
  await notifyUser(req, user, 'password_changed');
  return { detail: 'ok' };
}

interface ProfileBody {
  is_first_login?: unknown;
  phone?: unknown;
  wechat?: unknown;
  comment?: unknown;
  mfa_level?: unknown;
}

function phoneValue(v: unknown): string | undefined {
  if (v === null) return '';
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'object' && v && typeof (v as { phone?: unknown }).phone === 'string') {
    const { code, phone } = v as { code?: unknown; phone: string };
    return `${typeof code === 'string' ? code : ''}${phone}`.trim();
  }
  return undefined;
}

async function updateProfile(req: FastifyRequest<{ Body: ProfileBody }>, reply: FastifyReply) {
  const user = req.user!;
  const body = req.body ?? {};
  const patch: Record<string, string | number | boolean> = {};
  const errors: Record<string, string[]> = {};
  if ('is_first_login' in body) {
    if (typeof body.is_first_login === 'boolean') patch.is_first_login = body.is_first_login;
    else errors.is_first_login = ['Must be a valid boolean.'];
  }
  if ('phone' in body) {
    const phone = phoneValue(body.phone);
    if (phone === undefined || phone.length > 128) errors.phone = ['Enter a valid phone number.'];
    else patch.phone = phone;
  }
  for (const name of ['wechat', 'comment'] as const) {
    if (!(name in body)) continue;
    const v = body[name];
    if (typeof v !== 'string' || (name === 'wechat' && v.length > 128)) errors[name] = ['Not a valid string.'];
    else patch[name] = v;
  }
  if ('mfa_level' in body) {
    const raw =
      typeof body.mfa_level === 'object' && body.mfa_level
        ? (body.mfa_level as { value?: unknown }).value
        : body.mfa_level;
    const level = Number(raw);
    if (![0, 1, 2].includes(level) || raw === null || raw === '')
      errors.mfa_level = [tm(req.lang, 'invalid_choice', { value: String(raw) })];
    else {
      const mfaUser = (await loadMfaUser(req, user.id))!;
      patch.mfa_level = mfaUser.mfa_level === 2 || (await mfaForcedBySetting(req, mfaUser)) ? 2 : level;
    }
  }
  if (Object.keys(errors).length) throw validationError(errors);
  if (Object.keys(patch).length) {
    await req.db
      .updateTable('users_user')
      .set({ ...patch, date_updated: nowIso(), updated_by: user.username })
      .where('id', '=', user.id)
      .execute();
  }
  const fresh = await findActiveUser(req.db, user.id);
  return reply.send(await buildProfile(req, fresh ?? user));
}

export function registerProfilePasswordRoutes(app: FastifyInstance): void {
  const describe = shape('password', { old_password: 'string', new_password: 'string', new_password_again: 'string' }, [
    'old_password',
    'new_password',
    'new_password_again',
  ]);
  app.get('/api/v1/users/profile/password/', { config: { describe } }, async () => ({}));
  app.put('/api/v1/users/profile/password/', changePassword);
  app.patch('/api/v1/users/profile/password/', changePassword);
  app.put('/api/v1/users/profile/', updateProfile);
  app.patch('/api/v1/users/profile/', updateProfile);
}
