import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../http/errors.ts';
import { booleanField, idParam, listOrPage, notFound } from './ownRows.ts';
import { connectionTokenOut } from './connectionTokens.ts';
import { tp } from './profileMessages.ts';
import { CONNECTION_TOKEN } from './connectionTokens.ts';

/**
 * `/api/v1/authentication/connection-token/`: the caller's own tokens that have not expired, in
 * every organisation (the contract runs this view in the global org). Someone else's token, or an
 * expired one, is a 404. `PATCH <id>/expire/` ends a token (204); `PATCH <id>/reuse/`
 * `{is_reusable}` needs CONNECTION_TOKEN_REUSABLE and restarts the token's lifetime
 * (CONNECTION_TOKEN_REUSABLE_EXPIRATION when reusable, else CONNECTION_TOKEN_ONETIME_EXPIRATION).
 * Creating tokens (and exchange, rdp-file, client-url) belongs to the gateway.
 */
const BASE = '/api/v1/authentication/connection-token/';

function ownLive(req: FastifyRequest) {
  return req.db
    .selectFrom('authentication_connectiontoken as t')
    .leftJoin('orgs_organization as o', 'o.id', 't.org_id')
    .selectAll('t')
    .select('o.name as org_name')
    .where('t.user_id', '=', req.user!.id)
    .where('t.date_expired', '>', new Date().toISOString());
}

async function ownToken(req: FastifyRequest) {
  const row = await ownLive(req).where('t.id', '=', idParam(req)).executeTakeFirst();
  if (!row) throw notFound(req);
  return row;
}

async function list(req: FastifyRequest) {
  const rows = await ownLive(req).orderBy('t.date_created', 'desc').limit(1000).execute();
  return listOrPage(
    req,
    rows.map((r) => connectionTokenOut(r)),
  );
}

async function expire(req: FastifyRequest, reply: FastifyReply) {
  const row = await ownToken(req);
  const now = new Date().toISOString();
  await req.db
    .updateTable('authentication_connectiontoken')
    .set({ date_expired: now, date_updated: now, updated_by: req.user!.username })
    .where('id', '=', row.id)
    .execute();
  return reply.code(204).send();
}

async function reuse(req: FastifyRequest) {
  const { settings } = req.server.deps;
  const row = await ownToken(req);
  const isReusable = booleanField(req, req.body, 'is_reusable') ?? false;
  if (!(await settings.get('CONNECTION_TOKEN_REUSABLE')))
    throw new ApiError(400, {
      detail: tp(req.lang, 'connection_token_reuse_disabled'),
      code: 'connection_token_reuse_disabled',
    });
  const seconds = Number(
    await settings.get(isReusable ? 'CONNECTION_TOKEN_REUSABLE_EXPIRATION' : 'CONNECTION_TOKEN_ONETIME_EXPIRATION'),
  );
  const now = new Date();
  const dateExpired = new Date(now.getTime() + seconds * 1000).toISOString();
  await req.db
    .updateTable('authentication_connectiontoken')
    .set({
      is_reusable: isReusable,
      date_expired: dateExpired,
      date_updated: now.toISOString(),
      updated_by: req.user!.username,
    })
    .where('id', '=', row.id)
    .execute();
  return { id: row.id, date_expired: dateExpired, is_reusable: isReusable };
}

export function registerConnectionTokenRoutes(app: FastifyInstance): void {
  const view = { config: { perm: 'authentication.view_connectiontoken', describe: CONNECTION_TOKEN } };
  app.get(BASE, view, list);
  app.get(`${BASE}:id/`, view, async (req) => connectionTokenOut(await ownToken(req)));
  app.patch(`${BASE}:id/expire/`, { config: { perm: 'authentication.expire_connectiontoken' } }, expire);
  app.patch(`${BASE}:id/reuse/`, { config: { perm: 'authentication.reuse_connectiontoken' } }, reuse);
}
