import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { ApiError } from '../../../http/errors.ts';
import { t } from '../../../http/messages.ts';
import { toBool } from '../../../platform/db/schema.ts';
import { checkLoginAcl } from '../../acls/loginAcl.ts';
import { writeLoginLog } from '../../audits/loginLog.ts';
import { completeLogin, loginCsrfOk, loginFail } from '../completeLogin.ts';
import { requireConfirm } from '../confirm.ts';
import { safeNext } from '../passwordLogin.ts';
import { findActiveUser } from '../userLookup.ts';
import { booleanField, idParam, listOrPage, notFound } from './ownRows.ts';
import { finishAuthentication, finishRegistration, startAuthentication, startRegistration } from './passkeys.ts';
import { tp } from './profileMessages.ts';
import { shape } from '../../../resource/describe.ts';

/**
 * `/api/v1/authentication/passkeys/`: the caller's own passkeys (list, read, `is_active`/`name`
 * by PATCH, delete), `GET|POST register/` (WebAuthn creation, behind AUTH_PASSKEY and a recent
 * re-verification) and the public sign-in `GET|POST auth/` (the login page's CSRF token is
 * required on the POST, which answers like the login page: `LoginResult`).
 */
const BASE = '/api/v1/authentication/passkeys/';
const NAME_MAX = 255;

interface PasskeyRow {
  id: string;
  name: string;
  is_active: number | boolean;
  platform: string;
  created_by: string;
  date_last_used: string | null;
  date_created: string;
}

const COLUMNS = ['id', 'name', 'is_active', 'platform', 'created_by', 'date_last_used', 'date_created'] as const;
const out = (r: PasskeyRow) => ({ ...r, is_active: toBool(r.is_active) });

async function enabled(req: FastifyRequest): Promise<void> {
  if (!(await req.server.deps.settings.get('AUTH_PASSKEY')))
    throw new ApiError(400, { detail: tp(req.lang, 'passkey_disabled'), code: 'passkey_disabled' });
}

function nameOf(req: FastifyRequest, value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (!name || name.length > NAME_MAX) throw new ApiError(400, { name: [tp(req.lang, 'passkey_name_required')] });
  return name;
}

async function ownPasskey(req: FastifyRequest) {
  const row = await req.db
    .selectFrom('authentication_passkey')
    .select(COLUMNS)
    .where('id', '=', idParam(req))
    .where('user_id', '=', req.user!.id)
    .executeTakeFirst();
  if (!row) throw notFound(req);
  return row;
}

async function list(req: FastifyRequest) {
  const rows = await req.db
    .selectFrom('authentication_passkey')
    .select(COLUMNS)
    .where('user_id', '=', req.user!.id)
    .orderBy('date_created', 'desc')
    .execute();
  return listOrPage(req, rows.map(out));
}

async function update(req: FastifyRequest) {
  const row = await ownPasskey(req);
  const body = (req.body ?? {}) as { name?: unknown };
  const isActive = booleanField(req, body, 'is_active');
  const name = body.name === undefined ? undefined : nameOf(req, body.name);
  await requireConfirm(req, 'relogin');
  if (isActive !== undefined || name !== undefined)
    await req.db
      .updateTable('authentication_passkey')
      .set({ ...(isActive !== undefined ? { is_active: isActive } : {}), ...(name !== undefined ? { name } : {}) })
      .where('id', '=', row.id)
      .execute();
  return out({ ...row, is_active: isActive ?? row.is_active, name: name ?? row.name });
}

async function remove(req: FastifyRequest, reply: FastifyReply) {
  const row = await ownPasskey(req);
  await requireConfirm(req, 'relogin');
  await req.db.deleteFrom('authentication_passkey').where('id', '=', row.id).execute();
  return reply.code(204).send();
}

async function registerBegin(req: FastifyRequest) {
  await enabled(req);
  const name = nameOf(req, (req.query as { name?: unknown }).name);
  await requireConfirm(req, 'relogin');
  return startRegistration(req, name);
}

async function registerFinish(req: FastifyRequest, reply: FastifyReply) {
  await enabled(req);
  await requireConfirm(req, 'relogin');
  const row = await finishRegistration(req, (req.body ?? {}) as RegistrationResponseJSON);
  return reply.code(201).send(out(row));
}

async function authBegin(req: FastifyRequest) {
  await enabled(req);
  return startAuthentication(req);
}

async function authFinish(req: FastifyRequest, reply: FastifyReply) {
  if (!loginCsrfOk(req)) return loginFail(reply, 403, 'csrf_failed', t(req.lang, 'csrf_failed'));
  await enabled(req);
  const body = (req.body ?? {}) as { next?: unknown; auto_login?: unknown } & AuthenticationResponseJSON;
  let userId: string;
  try {
    userId = await finishAuthentication(req, body);
  } catch (e) {
    if (e instanceof ApiError) {
      const detail = (e.body as { detail?: string }).detail ?? '';
      await writeLoginLog(req, { username: '', status: false, reason: 'passkey_failed', mfa: 2, backend: 'Passkey' });
      return loginFail(reply, 400, 'passkey_failed', detail);
    }
    throw e;
  }
  const user = await findActiveUser(req.db, userId);
  if (!user) return loginFail(reply, 400, 'user_inactive', t(req.lang, 'user_inactive'));
  const acl = await checkLoginAcl(req, user.id);
  if (acl) {
    await writeLoginLog(req, { username: user.username, status: false, reason: acl.error, mfa: 1, backend: 'Passkey' });
    return loginFail(reply, 400, acl.error, acl.msg);
  }
  await req.db
    .updateTable('users_user')
    .set({ last_login: new Date().toISOString() })
    .where('id', '=', user.id)
    .execute();
  const autoLogin = body.auto_login === true || body.auto_login === 'on' || body.auto_login === '1';
  return completeLogin(req, reply, user.id, autoLogin, safeNext(body.next), { mfa: 1, backend: 'Passkey' });
}

export function registerPasskeyRoutes(app: FastifyInstance): void {
  const perm = (verb: string) => ({ config: { perm: `authentication.${verb}_passkey` } });
  const open = { config: { public: true } };
  const view = {
    config: {
      ...perm('view').config,
      describe: shape('passkey', {
        id: 'string',
        name: 'string',
        is_active: 'boolean',
        platform: 'string',
        created_by: 'string',
        date_last_used: 'datetime',
        date_created: 'datetime',
      }),
    },
  };
  const options = {
    config: {
      ...perm('add').config,
      describe: shape('passkey', {
        challenge: 'string',
        rp: 'json',
        user: 'json',
        pubKeyCredParams: 'list',
        timeout: 'integer',
      }),
    },
  };
  app.get(BASE, view, list);
  app.get(`${BASE}register/`, options, registerBegin);
  app.post(`${BASE}register/`, perm('add'), registerFinish);
  app.get(`${BASE}auth/`, open, authBegin);
  app.post(`${BASE}auth/`, open, authFinish);
  app.get(`${BASE}:id/`, view, async (req) => out(await ownPasskey(req)));
  app.patch(`${BASE}:id/`, perm('change'), update);
  app.delete(`${BASE}:id/`, perm('delete'), remove);
}
