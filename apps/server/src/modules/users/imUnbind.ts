import type { FastifyInstance, FastifyRequest } from 'fastify';
import { recordOperation } from '../../resource/audit.ts';
import { findVisible } from '../../resource/routes.ts';
import { requireConfirm } from '../authentication/confirm.ts';
import { IM_PROVIDERS, removeBinding } from '../authentication/im/imRoutes.ts';
import type { ImProvider } from '../authentication/im/imProvider.ts';
import { guardUserTarget } from '../rbac/userGuard.ts';
import { userResource } from './userResource.ts';

/**
 * `POST /api/v1/authentication/<x>/qr/unbind/<user_id>/`: an administrator removes a user's
 * WeCom / DingTalk / FeiShu binding (JumpServer's `…-qr-unbind-for-admin`), from the user's detail
 * page. `users.change_user`, a user visible in the current organisation (findVisible), one whose
 * standing the caller could manage (rbac/userGuard.ts, as the password and MFA-reset routes), and a
 * fresh `relogin` re-verification like the user's own unbinding. Logged as a change of the user.
 */
type UnbindReq = FastifyRequest<{ Params: { user_id: string } }>;

async function unbindFor(p: ImProvider, req: UnbindReq) {
  const row = await findVisible(userResource, { req, db: req.db }, req.params.user_id);
  await guardUserTarget(req, row.id, 'users.change_user');
  await requireConfirm(req, 'relogin');
  const user = { id: row.id, username: String(row.username) };
  const { msg, before } = await removeBinding(p, req, user, 'admin');
  await recordOperation(req.db, req, {
    action: 'update',
    def: userResource,
    resourceId: row.id,
    resourceName: `${String(row.name)}(${user.username})`,
    orgId: req.org.id,
    diff: [{ field: p.idColumn, before, after: '' }],
  });
  return { msg };
}

export function registerImUnbindRoutes(app: FastifyInstance): void {
  const config = { perm: 'users.change_user' };
  for (const p of IM_PROVIDERS)
    app.post<{ Params: { user_id: string } }>(
      `/api/v1/authentication/${p.name}/qr/unbind/:user_id/`,
      { config },
      (req) => unbindFor(p, req),
    );
}
