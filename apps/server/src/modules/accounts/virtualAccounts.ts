import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { formatDateTime } from '../../http/datetime.ts';
import { toBool } from '../../platform/db/schema.ts';
import { pageOf } from '../../resource/query.ts';
import { pageOfResults } from '../../resource/pagination.ts';
import type { Row } from '../../resource/types.ts';
import { ACCOUNT_MESSAGES as M, acm } from './accountMessages.ts';
import { shape } from '../../resource/describe.ts';

/**
 * `virtual-accounts/`: the aliases @INPUT (typed at connection), @USER (the
 * signed-in user's own credentials) and @ANON (no account) of each org, created on first use.
 * Only @USER can be changed: whether its secret comes from the login (`secret_from_login`).
 */
const URL = '/api/v1/accounts/virtual-accounts/';
const ALIASES = ['@INPUT', '@USER', '@ANON'] as const;
const NAMES = { '@INPUT': M.alias_input, '@USER': M.alias_user, '@ANON': M.alias_anon };

async function ensure(req: FastifyRequest): Promise<void> {
  if (req.org.id === ROOT_ORG_ID) return;
  const have = await req.db
    .selectFrom('accounts_virtualaccount')
    .select('alias')
    .where('org_id', '=', req.org.id)
    .execute();
  const now = new Date().toISOString();
  for (const alias of ALIASES.filter((a) => !have.some((h) => h.alias === a))) {
    await req.db
      .insertInto('accounts_virtualaccount')
      .values({
        id: randomUUID(),
        alias,
        secret_from_login: alias === '@USER' ? false : null,
        comment: '',
        org_id: req.org.id,
        date_created: now,
        date_updated: now,
      })
      // Two first requests at once: the second finds the row the first made.
      .onConflict((oc) => oc.columns(['org_id', 'alias']).doNothing())
      .execute();
  }
}

function out(req: FastifyRequest, r: Row) {
  const alias = r.alias as keyof typeof NAMES;
  return {
    id: r.id,
    alias,
    name: NAMES[alias]?.[req.lang] ?? alias,
    username: alias,
    secret_from_login: r.secret_from_login === null ? null : toBool(r.secret_from_login),
    comment: r.comment,
    date_created: formatDateTime(r.date_created, req.tz),
    date_updated: formatDateTime(r.date_updated, req.tz),
    org_id: r.org_id,
  };
}

function visible(req: FastifyRequest) {
  let q = req.db.selectFrom('accounts_virtualaccount').selectAll();
  if (req.org.id !== ROOT_ORG_ID) q = q.where('org_id', '=', req.org.id);
  return q;
}

async function findOne(req: FastifyRequest, ref: string): Promise<Row> {
  await ensure(req);
  const row = await visible(req)
    .where((eb) => eb.or([eb('id', '=', ref), eb('alias', '=', ref)]))
    .executeTakeFirst();
  if (!row) throw new ApiError(404, { detail: acm(req.lang, 'virtual_not_found') });
  return row;
}

async function update(req: FastifyRequest<{ Params: { id: string } }>) {
  const row = await findOne(req, req.params.id);
  if (row.alias !== '@USER') throw new ApiError(400, { error: acm(req.lang, 'virtual_readonly') });
  const body = (req.body ?? {}) as Row;
  const set: Row = {};
  if (body.secret_from_login !== undefined) {
    if (typeof body.secret_from_login !== 'boolean' && body.secret_from_login !== null)
      throw new ApiError(400, { secret_from_login: [acm(req.lang, 'must_be_boolean')] });
    set.secret_from_login = body.secret_from_login;
  }
  if (body.comment !== undefined) {
    if (typeof body.comment !== 'string') throw new ApiError(400, { comment: [acm(req.lang, 'must_be_text')] });
    set.comment = body.comment;
  }
  set.date_updated = new Date().toISOString();
  await req.db.updateTable('accounts_virtualaccount').set(set).where('id', '=', row.id).execute();
  return out(req, (await findOne(req, row.id))!);
}

export function registerVirtualAccountRoutes(app: FastifyInstance): void {
  const view = {
    config: {
      perm: 'accounts.view_virtualaccount',
      describe: shape('virtual_account', {
        id: 'string',
        alias: 'string',
        name: 'string',
        username: 'string',
        secret_from_login: 'boolean',
        comment: 'string',
        date_created: 'datetime',
        date_updated: 'datetime',
      }),
    },
  };
  const change = { config: { perm: 'accounts.change_virtualaccount' } };
  app.get(URL, view, async (req) => {
    await ensure(req);
    const rows = (await visible(req).orderBy('alias').execute()).map((r) => out(req, r));
    const page = pageOf(req.query as Record<string, string>);
    return page ? pageOfResults(req, page, rows.length, rows.slice(page.offset, page.offset + page.limit)) : rows;
  });
  app.get<{ Params: { id: string } }>(`${URL}:id/`, view, async (req) => out(req, await findOne(req, req.params.id)));
  app.put<{ Params: { id: string } }>(`${URL}:id/`, change, update);
  app.patch<{ Params: { id: string } }>(`${URL}:id/`, change, update);
}
