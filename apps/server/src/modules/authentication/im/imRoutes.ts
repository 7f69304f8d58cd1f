import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LOGIN_PATH, settingFields } from '@gatehouse/contract';
import { ApiError } from '../../../http/errors.ts';
import { catalogue, tr } from '../../../platform/i18n/catalogue.ts';
import type imMessages from '../../../platform/i18n/locales/en/im.json';
import { shape } from '../../../resource/describe.ts';
import { decodeSecretField } from '../../../resource/secretFields.ts';
import { validateCategory } from '../../settings/settingValidate.ts';
import { requireConfirm } from '../confirm.ts';
import { safeNext } from '../passwordLogin.ts';
import type { ExternalProfile } from '../providers/externalUsers.ts';
import { signInExternal } from '../providers/signIn.ts';
import { findUserWithPassword } from '../userLookup.ts';
import { beginSso, takeSso } from '../sso/ssoFlow.ts';
import { finishSso, refuseSso, type SsoResolver } from '../sso/ssoFinish.ts';
import { siteUrl } from '../sso/ssoSite.ts';
import { ImApiError, str } from './imApi.ts';
import type { ImConfig, ImIdentity, ImProvider } from './imProvider.ts';
import { WECOM } from './wecom.ts';
import { DINGTALK } from './dingtalk.ts';
import { FEISHU } from './feishu.ts';

/**
 * Sign-in through the company messengers' QR pages (WeCom, DingTalk, FeiShu), JumpServer's paths:
 * - `GET /core/auth/<x>/qr/login/?next=` sends the browser to the provider's page with a state
 *   bound to it (sso/ssoFlow.ts); `GET …/qr/login/callback/` asks the provider who the code names
 *   and finds the user bound to that id (`users_user.<x>_id`). A person bound to nobody becomes a
 *   user of source `<x>` (bound at once) unless ONLY_ALLOW_EXIST_USER_AUTH, which refuses
 *   `not_bound`: such users sign in with their password and bind from the profile. The end is
 *   every provider's (sso/ssoFinish.ts): locks, active, expired, login ACL, MFA, login log.
 * - `GET /core/auth/<x>/qr/bind/?redirect_url=` (signed in, re-verified at `relogin` level like
 *   the unbinding) and its callback bind the messenger to the signed-in user: the flow names that
 *   user, so a callback pushed into another user's browser binds nothing.
 * - `POST /api/v1/authentication/<x>/qr/unbind/` (re-verified) removes the binding;
 *   `GET /api/v1/authentication/confirm-oauth/` answers whether the re-verification is fresh.
 * - `POST /api/v1/settings/<x>/testing/` (settings.change_auth) asks the provider for the app's
 *   token with the form's values (an empty secret keeps the stored one).
 */
export const IM_PROVIDERS: readonly ImProvider[] = [WECOM, DINGTALK, FEISHU];
const IM = catalogue<typeof imMessages>('im');

export const imLoginPath = (name: string) => `/core/auth/${name}/qr/login/`;
const loginCallbackPath = (name: string) => `/core/auth/${name}/qr/login/callback/`;
export const imBindPath = (name: string) => `/core/auth/${name}/qr/bind/`;
const bindCallbackPath = (name: string) => `/core/auth/${name}/qr/bind/callback/`;
/** The sign-in inside the provider's own client (WeCom's OAuth2 page, no QR code): JumpServer's paths. */
export const imInAppLoginPath = (name: string) => `/core/auth/${name}/oauth/login/`;
const inAppCallbackPath = (name: string) => `/core/auth/${name}/oauth/login/callback/`;
const PROFILE_PAGE = '/ui/profile/';
const MAX_CODE_LENGTH = 1024;

/** The provider's settings, `over` (a form's checked values) winning; an empty secret keeps the stored one. */
export async function imConfig(
  req: FastifyRequest,
  p: ImProvider,
  over: Record<string, unknown> = {},
): Promise<ImConfig> {
  const s = req.server.deps.settings;
  const values = new Map<string, string>();
  for (const f of p.fields) values.set(f, str(f in over ? over[f] : await s.valueOf(f)));
  const secret = over[p.secretSetting];
  values.set(p.secretSetting, typeof secret === 'string' && secret ? secret : await s.secret(p.secretSetting));
  return (name) => values.get(name) ?? '';
}

const missing = (p: ImProvider, c: ImConfig) => p.required.filter((n) => !c(n));

async function enabled(req: FastifyRequest, p: ImProvider): Promise<ImConfig | undefined> {
  if (!(await req.server.deps.settings.valueOf(p.enabledSetting))) return undefined;
  const c = await imConfig(req, p);
  return missing(p, c).length ? undefined : c;
}

/**
 * The start of a sign-in: the QR page, or with `inApp` the provider's OAuth2 page inside its own
 * client. Both come back with a code for the same flow (state bound to the browser) and end alike.
 */
async function login(p: ImProvider, req: FastifyRequest, reply: FastifyReply, inApp = false): Promise<FastifyReply> {
  const c = await enabled(req, p);
  if (!c) return refuseSso(req, reply, p.name, 'sso_failed', { reason: 'provider_disabled' });
  const state = await beginSso(req, reply, p.name);
  if (inApp && p.inAppAuthorizeUrl)
    return reply.redirect(p.inAppAuthorizeUrl(c, await siteUrl(req, inAppCallbackPath(p.name)), state));
  return reply.redirect(p.authorizeUrl(c, await siteUrl(req, loginCallbackPath(p.name)), state));
}

/** The person the callback's code names, or undefined (logged) when the provider refuses or fails. */
async function identify(p: ImProvider, req: FastifyRequest, c: ImConfig): Promise<ImIdentity | undefined> {
  const code = (req.query as Record<string, unknown>).code;
  if (typeof code !== 'string' || !code || code.length > MAX_CODE_LENGTH) return undefined;
  try {
    return await p.identify(req, c, code);
  } catch (e) {
    req.log.warn({ err: e instanceof ImApiError ? e.message : e }, `${p.name} sign-in: the provider refused`);
    return undefined;
  }
}

/** The user already bound to the person. */
function byBinding(p: ImProvider, imId: string): SsoResolver {
  return async (req, profile) => {
    const user = await findUserWithPassword(req.db, profile.username);
    const bound = await req.db.selectFrom('users_user').select('id').where(p.idColumn, '=', imId).executeTakeFirst();
    return user && bound?.id === user.id ? { ok: true, user } : { ok: false, error: 'user_invalid' };
  };
}

/** Bound to nobody: the user of this source with the person's id as username, created if allowed, then bound. */
function createAndBind(p: ImProvider, imId: string): SsoResolver {
  return async (req, profile, backend) => {
    const signed = await signInExternal(req, profile, backend);
    if (!signed.ok) return { ok: false, error: signed.error === 'user_not_exist' ? 'not_bound' : signed.error };
    const bound = await bindTo(req, p, signed.user.id, imId);
    return bound === 'ok' ? signed : { ok: false, error: 'user_invalid' };
  };
}

/** Binds the person to the user unless another user holds it or the user holds another person. */
async function bindTo(
  req: FastifyRequest,
  p: ImProvider,
  userId: string,
  imId: string,
): Promise<'ok' | 'taken' | 'other_bound'> {
  const col = p.idColumn;
  const holder = await req.db.selectFrom('users_user').select('id').where(col, '=', imId).executeTakeFirst();
  if (holder && holder.id !== userId) return 'taken';
  if (holder) return 'ok';
  try {
    await req.db
      .updateTable('users_user')
      .set({ [col]: imId })
      .where('id', '=', userId)
      .where(col, 'is', null)
      .execute();
  } catch {
    // The unique index: a concurrent binding of the same person to another user won.
    return 'taken';
  }
  const row = await req.db.selectFrom('users_user').select(col).where('id', '=', userId).executeTakeFirst();
  return row?.[col] === imId ? 'ok' : 'other_bound';
}

async function loginCallback(p: ImProvider, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const flow = await takeSso(req, p.name, (req.query as Record<string, unknown>).state);
  if (!flow) return refuseSso(req, reply, p.name, 'sso_failed', { reason: 'state_invalid' });
  const c = await enabled(req, p);
  if (!c) return refuseSso(req, reply, p.name, 'sso_failed', { reason: 'provider_disabled' });
  const who = await identify(p, req, c);
  if (!who) return refuseSso(req, reply, p.name, 'sso_failed', { reason: 'provider_failed' });
  const bound = await req.db
    .selectFrom('users_user')
    .select(['username', 'name', 'email'])
    .where(p.idColumn, '=', who.id)
    .executeTakeFirst();
  const email = who.email || `${who.username}@${await req.server.deps.settings.get('EMAIL_SUFFIX')}`;
  const profile: ExternalProfile = bound ?? { username: who.username, name: who.name, email };
  return finishSso(
    req,
    reply,
    p.name,
    profile,
    flow.next,
    undefined,
    bound ? byBinding(p, who.id) : createAndBind(p, who.id),
  );
}

/** `path` (a safe local path) with `?im_bind=<x>&result=<result>` added. */
function withResult(path: string, provider: string, result: string): string {
  const url = new URL(path, 'http://site.invalid');
  url.searchParams.set('im_bind', provider);
  url.searchParams.set('result', result);
  return `${url.pathname}${url.search}${url.hash}`;
}

async function bind(p: ImProvider, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  if (!req.user) return reply.redirect(`${LOGIN_PATH}?next=${encodeURIComponent(req.url)}`);
  const back = safeNext((req.query as Record<string, unknown>).redirect_url, PROFILE_PAGE);
  const c = await enabled(req, p);
  if (!c) return reply.redirect(withResult(back, p.name, 'disabled'));
  try {
    await requireConfirm(req, 'relogin');
  } catch {
    return reply.redirect(withResult(back, p.name, 'confirm'));
  }
  const state = await beginSso(req, reply, `${p.name}_bind`, { userId: req.user.id, next: back });
  return reply.redirect(p.authorizeUrl(c, await siteUrl(req, bindCallbackPath(p.name)), state));
}

async function bindCallback(p: ImProvider, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const flow = await takeSso(req, `${p.name}_bind`, (req.query as Record<string, unknown>).state);
  const back = flow?.next ?? PROFILE_PAGE;
  if (!flow || !req.user || req.user.id !== flow.userId)
    return reply.redirect(withResult(back, p.name, 'state_invalid'));
  const c = await enabled(req, p);
  if (!c) return reply.redirect(withResult(back, p.name, 'disabled'));
  const who = await identify(p, req, c);
  if (!who) return reply.redirect(withResult(back, p.name, 'provider_failed'));
  const result = await bindTo(req, p, req.user.id, who.id);
  if (result === 'ok') req.log.info({ user: req.user.username, provider: p.name }, 'messenger bound');
  return reply.redirect(withResult(back, p.name, result));
}

/**
 * Removes the messenger's binding of `userId` (the caller's own, or another user's for an
 * administrator: modules/users/imUnbind.ts); the id that was bound, or a 400 naming the provider
 * when there was none. `whose` picks the message: "your account" or the user's name.
 */
export async function removeBinding(
  p: ImProvider,
  req: FastifyRequest,
  user: { id: string; username: string },
  whose: 'own' | 'admin',
): Promise<{ msg: string; before: string }> {
  const row = await req.db.selectFrom('users_user').select(p.idColumn).where('id', '=', user.id).executeTakeFirst();
  const before = row?.[p.idColumn] ?? null;
  const res = before
    ? await req.db
        .updateTable('users_user')
        .set({ [p.idColumn]: null })
        .where('id', '=', user.id)
        .where(p.idColumn, '=', before)
        .executeTakeFirst()
    : undefined;
  const provider = p.label(await imConfig(req, p));
  const vars = { provider, user: user.username };
  if (!before || Number(res?.numUpdatedRows ?? 0) === 0)
    throw new ApiError(400, { msg: tr(req.lang, whose === 'own' ? IM.not_bound : IM.admin_not_bound, vars) });
  return { msg: tr(req.lang, whose === 'own' ? IM.unbound : IM.admin_unbound, vars), before };
}

async function unbind(p: ImProvider, req: FastifyRequest) {
  await requireConfirm(req, 'relogin');
  return { msg: (await removeBinding(p, req, req.user!, 'own')).msg };
}

async function testing(p: ImProvider, req: FastifyRequest, reply: FastifyReply) {
  const body = req.body ?? {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, {});
  const form = { ...(body as Record<string, unknown>) };
  if (p.secretSetting in form)
    form[p.secretSetting] = await decodeSecretField(req, form[p.secretSetting], p.secretSetting);
  const checked = validateCategory(settingFields(p.name), form, true, req.lang);
  if (!checked.ok) throw new ApiError(400, checked.errors);
  const c = await imConfig(req, p, checked.values);
  const provider = p.label(c);
  const lacking = missing(p, c);
  if (lacking.length)
    return reply.code(400).send({ msg: tr(req.lang, IM.not_configured, { fields: lacking.join(', ') }) });
  try {
    await p.check(req, c);
  } catch (e) {
    const error = (e as Error).message;
    const key = e instanceof ImApiError ? IM.test_failed : IM.unreachable;
    return reply.code(400).send({ msg: tr(req.lang, key, { provider, error }) });
  }
  return { msg: tr(req.lang, IM.test_ok, { provider }) };
}

export function registerImRoutes(app: FastifyInstance): void {
  const msg = shape('msg', { msg: 'string' });
  app.get('/api/v1/authentication/confirm-oauth/', { config: { describe: msg } }, async (req) => {
    await requireConfirm(req, 'relogin');
    return { msg: 'ok' };
  });
  for (const p of IM_PROVIDERS) {
    app.get(imLoginPath(p.name), { config: { public: true } }, (req, reply) => login(p, req, reply));
    app.get(loginCallbackPath(p.name), { config: { public: true } }, (req, reply) => loginCallback(p, req, reply));
    if (p.inAppAuthorizeUrl) {
      app.get(imInAppLoginPath(p.name), { config: { public: true } }, (req, reply) => login(p, req, reply, true));
      app.get(inAppCallbackPath(p.name), { config: { public: true } }, (req, reply) => loginCallback(p, req, reply));
    }
    app.get(imBindPath(p.name), { config: { public: true } }, (req, reply) => bind(p, req, reply));
    app.get(bindCallbackPath(p.name), { config: { public: true } }, (req, reply) => bindCallback(p, req, reply));
    app.post(`/api/v1/authentication/${p.name}/qr/unbind/`, {}, (req) => unbind(p, req));
    app.post(`/api/v1/settings/${p.name}/testing/`, { config: { perm: 'settings.change_auth' } }, (req, reply) =>
      testing(p, req, reply),
    );
  }
}

/** The login page's buttons of the enabled, configured messengers (sso/ssoMethods.ts). */
export async function imMethods(req: FastifyRequest) {
  const out = [];
  for (const p of IM_PROVIDERS) {
    const c = await enabled(req, p);
    if (!c) continue;
    // Inside the provider's own client (its User-Agent) the button signs in there, without a QR code.
    const inApp = p.inAppAuthorizeUrl && p.inAppAgent?.test(req.headers['user-agent'] ?? '');
    out.push({
      name: p.name,
      label: p.label(c),
      url: inApp ? imInAppLoginPath(p.name) : imLoginPath(p.name),
      logo: '',
    });
  }
  return out;
}
