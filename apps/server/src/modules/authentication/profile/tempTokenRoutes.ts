import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../http/errors.ts';
import { nowIso } from '../../../platform/db/schema.ts';
import { requireConfirm } from '../confirm.ts';
import { idParam, listOrPage, notFound } from './ownRows.ts';
import { tp } from './profileMessages.ts';
import { createTempToken, tempTokenOut } from './tempTokens.ts';
import { shape } from '../../../resource/describe.ts';

/**
 * `/api/v1/authentication/temp-tokens/`: the caller's own temporary passwords. Creating one needs
 * AUTH_TEMP_TOKEN and a recent re-verification (it is a way in); `PATCH <id>/expire/` ends one.
 */
const BASE = '/api/v1/authentication/temp-tokens/';

async function enabled(req: FastifyRequest): Promise<void> {
  if (!(await req.server.deps.settings.get('AUTH_TEMP_TOKEN')))
    throw new ApiError(400, { detail: tp(req.lang, 'temp_token_disabled'), code: 'temp_token_disabled' });
}

async function ownToken(req: FastifyRequest) {
  const row = await req.db
    .selectFrom('authentication_temptoken')
    .selectAll()
    .where('id', '=', idParam(req))
    .where('user_id', '=', req.user!.id)
    .executeTakeFirst();
  if (!row) throw notFound(req);
  return row;
}

async function list(req: FastifyRequest) {
  const rows = await req.db
    .selectFrom('authentication_temptoken')
    .selectAll()
    .where('user_id', '=', req.user!.id)
    .orderBy('date_created', 'desc')
    .limit(100)
    .execute();
  return listOrPage(
    req,
    rows.map((r) => tempTokenOut(req, r)),
  );
}

async function create(req: FastifyRequest, reply: FastifyReply) {
  await enabled(req);
  await requireConfirm(req, 'relogin');
  const row = await createTempToken(req, req.user!);
  return reply.code(201).send(tempTokenOut(req, { ...row, secret: req.server.deps.secretBox.encrypt(row.secret) }));
}

async function expire(req: FastifyRequest, reply: FastifyReply) {
  const row = await ownToken(req);
  const now = nowIso();
  if (Date.parse(row.date_expired) > Date.now())
    await req.db
      .updateTable('authentication_temptoken')
      .set({ date_expired: now, date_updated: now })
      .where('id', '=', row.id)
      .execute();
  return reply.code(204).send();
}

export function registerTempTokenRoutes(app: FastifyInstance): void {
  const perm = (verb: string) => ({ config: { perm: `authentication.${verb}_temptoken` } });
  const view = {
    config: {
      ...perm('view').config,
      describe: shape('temp_token', {
        id: 'string',
        username: 'string',
        secret: 'string',
        verified: 'boolean',
        is_valid: 'boolean',
        date_created: 'datetime',
        date_updated: 'datetime',
        date_verified: 'datetime',
        date_expired: 'datetime',
      }),
    },
  };
  app.get(BASE, view, list);
  app.post(BASE, perm('add'), create);
  app.get(`${BASE}:id/`, view, async (req) => tempTokenOut(req, await ownToken(req)));
  app.patch(`${BASE}:id/expire/`, perm('change'), expire);
}
