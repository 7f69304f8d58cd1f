import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { recordOperation } from '../../resource/audit.ts';
import { findVisible } from '../../resource/routes.ts';
import { listQuery } from '../../resource/query.ts';
import type { Query } from '../../resource/query.ts';
import type { ResourceCtx, Row } from '../../resource/types.ts';
import { setUserPassword } from './setPassword.ts';
import { tr } from '../../platform/i18n/catalogue.ts';
import { LM } from '../authentication/ldap/messages.ts';
import { Lockout } from '../authentication/lockout.ts';
import { checkPasswordRules } from './passwordRules.ts';
import { userResource } from './userResource.ts';
import { notifyUser } from '../notifications/systemMessages.ts';
import { endCredentials } from '../../http/bearerTokens.ts';
import { guardUserTarget, UserReach } from '../rbac/userGuard.ts';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type usersMessages from '../../platform/i18n/locales/en/users.json';
import { pick } from '../../resource/describe.ts';

/** The user actions of the JumpServer console, each behind its permission. */

const MSG = catalogue<typeof usersMessages>('users');
const SUGGESTIONS = 10;
const SUGGESTIONS_PAGE = 50;
const SUGGESTIONS_SCAN = 1000;

type IdReq = FastifyRequest<{ Params: { id: string } }>;
const ctxOf = (req: FastifyRequest): ResourceCtx => ({ req, db: req.db });

async function removeFromOrg(ctx: ResourceCtx, rows: Row[]): Promise<void> {
  if (ctx.req.org.id === ROOT_ORG_ID) throw new ApiError(400, { error: MSG.notValidOrg[ctx.req.lang] });
  for (const row of rows) await guardUserTarget(ctx.req, row.id, 'users.remove_user');
  for (const row of rows) {
    await ctx.db
      .deleteFrom('rbac_rolebinding')
      .where('user_id', '=', row.id)
      .where('scope', '=', 'org')
      .where('org_id', '=', ctx.req.org.id)
      .execute();
    await ctx.db
      .deleteFrom('users_user_groups')
      .where('user_id', '=', row.id)
      .where(
        'usergroup_id',
        'in',
        ctx.db.selectFrom('users_usergroup').select('id').where('org_id', '=', ctx.req.org.id),
      )
      .execute();
    await recordOperation(ctx.db, ctx.req, {
      action: 'update',
      def: userResource,
      resourceId: row.id,
      resourceName: `${row.name}(${row.username})`,
      orgId: ctx.req.org.id,
      diff: [{ field: 'org_roles', before: ctx.req.org.name, after: '' }],
    });
  }
}

export function registerUserActions(app: FastifyInstance): void {
  const url = userResource.url;
  const perm = (p: string) => ({ config: { perm: p } });

  // Only users the caller could invite (their system standing is one it could have granted,
  // rbac/userGuard.ts), scanned in pages so those it may not see do not crowd out the ten shown.
  const suggestions = {
    config: { perm: 'users.match_user', describe: pick(userResource, ['id', 'name', 'username']) },
  };
  app.get(`${url}suggestions/`, suggestions, async (req) => {
    const search = (req.query as Query).search;
    let q = req.db.selectFrom('users_user').select(['id', 'name', 'username']).where('is_service_account', '=', false);
    if (typeof search === 'string' && search)
      q = q.where((eb) =>
        eb.or([
          eb('username', 'like', `%${search}%`),
          eb('name', 'like', `%${search}%`),
          eb('email', 'like', `%${search}%`),
        ]),
      );
    const reach = await UserReach.of(req);
    const out: { id: string; name: string; username: string }[] = [];
    for (let offset = 0; out.length < SUGGESTIONS && offset < SUGGESTIONS_SCAN; offset += SUGGESTIONS_PAGE) {
      const page = await q.orderBy('name').orderBy('id').limit(SUGGESTIONS_PAGE).offset(offset).execute();
      const ok = await reach.invitable(page.map((u) => u.id));
      out.push(...page.filter((u) => ok.has(u.id)).slice(0, SUGGESTIONS - out.length));
      if (page.length < SUGGESTIONS_PAGE) break;
    }
    return out;
  });

  app.post<{ Params: { id: string } }>(`${url}:id/remove/`, perm('users.remove_user'), async (req: IdReq, reply) => {
    const ctx = ctxOf(req);
    await removeFromOrg(ctx, [await findVisible(userResource, ctx, req.params.id)]);
    return reply.code(204).send();
  });

  app.post(`${url}remove/`, perm('users.remove_user'), async (req, reply) => {
    const ctx = ctxOf(req);
    const query = req.query as Query;
    if (!query.spm && !query.ids)
      throw new ApiError(400, { detail: 'spm or ids required', code: 'bulk_remove_needs_ids' });
    await removeFromOrg(ctx, (await (await listQuery(userResource, ctx, query)).execute()) as Row[]);
    return reply.code(204).send();
  });

  const setPassword = async (req: IdReq) => {
    const ctx = ctxOf(req);
    const row = await findVisible(userResource, ctx, req.params.id);
    await guardUserTarget(req, row.id, 'users.change_user');
    const password = (req.body as { password?: unknown } | undefined)?.password;
    if (typeof password !== 'string' || !password) throw new ApiError(400, { password: ['This field is required.'] });
    // A directory user's password lives in the directory.
    if (row.source && row.source !== 'local')
      throw new ApiError(400, { password: [tr(req.lang, LM.source_password, { source: String(row.source) })] });
    const bad = await checkPasswordRules(req.server.deps.settings, password, req.lang);
    if (bad) throw new ApiError(400, { password: [bad] });
    await setUserPassword(req.db, req, row.id, { password });
    // The old password's sign-ins end with it: every session and bearer token of the user.
    await endCredentials(req.server.deps, req.db, row.id, row.id === req.user?.id ? req.session?.id : undefined);
    await recordOperation(req.db, req, {
      action: 'update',
      def: userResource,
      resourceId: row.id,
      resourceName: `${row.name}(${row.username})`,
      orgId: req.org.id,
      diff: [{ field: 'password', before: '******', after: '******' }],
    });
    return { id: row.id };
  };
  app.put<{ Params: { id: string } }>(`${url}:id/password/`, perm('users.change_user'), setPassword);
  app.patch<{ Params: { id: string } }>(`${url}:id/password/`, perm('users.change_user'), setPassword);

  const unblock = async (req: IdReq) => {
    const row = await findVisible(userResource, ctxOf(req), req.params.id);
    await guardUserTarget(req, row.id, 'users.change_user');
    await new Lockout(req.server.deps.cache, 'LOGIN').unblock(row.username);
    await new Lockout(req.server.deps.cache, 'MFA').unblock(row.username);
    return { id: row.id, login_blocked: false };
  };
  app.put<{ Params: { id: string } }>(`${url}:id/unblock/`, perm('users.change_user'), unblock);
  app.patch<{ Params: { id: string } }>(`${url}:id/unblock/`, perm('users.change_user'), unblock);

  // The contract's reset is a GET; it changes state, so it needs change_user and,
  // for a session, the CSRF header (changesState).
  const reset = { config: { perm: 'users.change_user', changesState: true } };
  app.get<{ Params: { id: string } }>(`${url}:id/mfa/reset/`, reset, async (req: IdReq) => {
    const row = await findVisible(userResource, ctxOf(req), req.params.id);
    if (row.id === req.user?.id) throw new ApiError(400, { error: MSG.resetSelf[req.lang] });
    await guardUserTarget(req, row.id, 'users.change_user');
    await req.db
      .updateTable('users_user')
      .set({ mfa_level: 0, otp_secret_key: null })
      .where('id', '=', row.id)
      .execute();
    await notifyUser(req, { id: row.id, username: row.username }, 'mfa_removed');
    await recordOperation(req.db, req, {
      action: 'update',
      def: userResource,
      resourceId: row.id,
      resourceName: `${row.name}(${row.username})`,
      orgId: req.org.id,
      diff: [{ field: 'mfa_level', before: String(row.mfa_level), after: '0' }],
    });
    return { msg: 'success' };
  });
}
