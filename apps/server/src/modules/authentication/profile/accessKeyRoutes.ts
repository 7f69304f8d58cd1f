import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../http/errors.ts';
import { registerCredentialScheme } from '../../../http/credentialSchemes.ts';
import { toBool } from '../../../platform/db/schema.ts';
import { requireConfirm } from '../confirm.ts';
import { createAccessKey, MAX_ACCESS_KEYS, privateTokenScheme, signatureScheme } from './accessKeys.ts';
import { booleanField, idParam, listOrPage, notFound } from './ownRows.ts';
import { tp } from './profileMessages.ts';
import { shape } from '../../../resource/describe.ts';

/**
 * `/api/v1/authentication/access-keys/`: the caller's own API keys only (someone else's id is a
 * 404). The secret is returned once, in the answer to POST; lists and reads never carry it.
 * Creating, changing and deleting a key need a recent re-verification (`relogin` level, as binding
 * an authenticator): a stolen session cookie alone does not mint a lasting credential.
 */
const BASE = '/api/v1/authentication/access-keys/';

interface KeyRow {
  id: string;
  is_active: number | boolean;
  date_created: string;
  date_last_used: string | null;
}

const out = (r: KeyRow) => ({
  id: r.id,
  is_active: toBool(r.is_active),
  date_created: r.date_created,
  date_last_used: r.date_last_used,
});

async function ownKey(req: FastifyRequest) {
  const row = await req.db
    .selectFrom('authentication_accesskey')
    .select(['id', 'is_active', 'date_created', 'date_last_used'])
    .where('id', '=', idParam(req))
    .where('user_id', '=', req.user!.id)
    .executeTakeFirst();
  if (!row) throw notFound(req);
  return row;
}

async function list(req: FastifyRequest) {
  const rows = await req.db
    .selectFrom('authentication_accesskey')
    .select(['id', 'is_active', 'date_created', 'date_last_used'])
    .where('user_id', '=', req.user!.id)
    .orderBy('date_created', 'desc')
    .execute();
  return listOrPage(req, rows.map(out));
}

async function create(req: FastifyRequest, reply: FastifyReply) {
  await requireConfirm(req, 'relogin');
  const count = await req.db
    .selectFrom('authentication_accesskey')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', req.user!.id)
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= MAX_ACCESS_KEYS)
    throw new ApiError(400, { detail: tp(req.lang, 'access_key_limit', { max: MAX_ACCESS_KEYS }), code: 'limit' });
  const key = await createAccessKey(req.server.deps, req.db, req.user!.id);
  return reply.code(201).send({ ...out(key), secret: key.secret });
}

async function update(req: FastifyRequest) {
  const row = await ownKey(req);
  const isActive = booleanField(req, req.body, 'is_active');
  await requireConfirm(req, 'relogin');
  if (isActive !== undefined)
    await req.db
      .updateTable('authentication_accesskey')
      .set({ is_active: isActive })
      .where('id', '=', row.id)
      .execute();
  return out({ ...row, is_active: isActive ?? row.is_active });
}

async function remove(req: FastifyRequest, reply: FastifyReply) {
  const row = await ownKey(req);
  await requireConfirm(req, 'relogin');
  await req.db.deleteFrom('authentication_accesskey').where('id', '=', row.id).execute();
  return reply.code(204).send();
}

export function registerAccessKeyRoutes(app: FastifyInstance): void {
  registerCredentialScheme(app, signatureScheme);
  registerCredentialScheme(app, privateTokenScheme);
  const perm = (verb: string) => ({ config: { perm: `authentication.${verb}_accesskey` } });
  const view = {
    config: {
      ...perm('view').config,
      describe: shape('access_key', {
        id: 'string',
        is_active: 'boolean',
        date_created: 'datetime',
        date_last_used: 'datetime',
      }),
    },
  };
  app.get(BASE, view, list);
  app.post(BASE, perm('add'), create);
  app.get(`${BASE}:id/`, view, async (req) => out(await ownKey(req)));
  app.patch(`${BASE}:id/`, perm('change'), update);
  app.put(`${BASE}:id/`, perm('change'), update);
  app.delete(`${BASE}:id/`, perm('delete'), remove);
}
