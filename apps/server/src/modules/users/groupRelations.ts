import { randomUUID } from 'node:crypto';
import { catalogue, tr } from '../../platform/i18n/catalogue.ts';
import type usersMessages from '../../platform/i18n/locales/en/users.json';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { findVisible } from '../../resource/routes.ts';
import type { ResourceCtx } from '../../resource/types.ts';
import { groupResource } from './groupResource.ts';
import { userResource } from './userResource.ts';
import { orgMemberIds } from '../rbac/orgMembers.ts';
import { shape } from '../../resource/describe.ts';

const M = catalogue<typeof usersMessages>('users');

/**
 * Group membership (`users-groups-relations/`, `add-all-users/`):
 * list with filters, bulk create, delete of exactly one relation.
 */
const URL = '/api/v1/users/users-groups-relations/';
const ctxOf = (req: FastifyRequest): ResourceCtx => ({ req, db: req.db });

function relations(req: FastifyRequest) {
  const q = req.query as { user?: string; usergroup?: string };
  let query = req.db
    .selectFrom('users_user_groups as l')
    .innerJoin('users_user as u', 'u.id', 'l.user_id')
    .innerJoin('users_usergroup as g', 'g.id', 'l.usergroup_id')
    .select([
      'l.id',
      'l.user_id as user',
      'l.usergroup_id as usergroup',
      sql<string>`u.name || '(' || u.username || ')'`.as('user_display'),
      'g.name as usergroup_display',
    ]);
  if (req.org.id !== ROOT_ORG_ID) query = query.where('g.org_id', '=', req.org.id);
  if (q.user) query = query.where('l.user_id', '=', q.user);
  if (q.usergroup) query = query.where('l.usergroup_id', '=', q.usergroup);
  return query;
}

export function registerGroupRelations(app: FastifyInstance): void {
  const perm = (p: string) => ({ config: { perm: p } });

  const describe = shape(
    'user_group_relation',
    { id: 'integer', user: 'string', usergroup: 'string', user_display: 'string', usergroup_display: 'string' },
    ['user', 'usergroup'],
  );
  app.get(URL, { config: { ...perm('users.view_usergroup').config, describe } }, async (req) =>
    relations(req).orderBy('u.name').execute(),
  );

  app.post(URL, perm('users.change_usergroup'), async (req, reply) => {
    const items = Array.isArray(req.body)
      ? (req.body as { user?: string; usergroup?: string }[])
      : [req.body as { user?: string; usergroup?: string }];
    const ctx = ctxOf(req);
    const rows = [];
    for (const item of items) {
      if (!item?.user || !item.usergroup)
        throw new ApiError(400, { non_field_errors: ['user and usergroup are required'] });
      await findVisible(userResource, ctx, item.user);
      await findVisible(groupResource, ctx, item.usergroup);
      rows.push({ id: randomUUID(), user_id: item.user, usergroup_id: item.usergroup });
    }
    for (const r of rows) {
      await req.db
        .insertInto('users_user_groups')
        .values(r)
        .onConflict((oc) => oc.columns(['user_id', 'usergroup_id']).doNothing())
        .execute();
    }
    return reply.code(201).send(rows.map((r) => ({ id: r.id, user: r.user_id, usergroup: r.usergroup_id })));
  });

  app.delete(URL, perm('users.change_usergroup'), async (req, reply) => {
    const matches = await relations(req).execute();
    const q = req.query as { user?: string; usergroup?: string };
    if (!q.user || !q.usergroup || matches.length !== 1)
      throw new ApiError(400, {
        detail: tr(req.lang, M.relation_exactly_one),
        code: 'relation_not_unique',
      });
    await req.db.deleteFrom('users_user_groups').where('id', '=', matches[0]!.id).execute();
    return reply.code(204).send();
  });

  app.post<{ Params: { id: string } }>(
    `${groupResource.url}:id/add-all-users/`,
    perm('users.add_usergroup'),
    async (req) => {
      const ctx = ctxOf(req);
      const group = await findVisible(groupResource, ctx, req.params.id);
      const members = await orgMemberIds(req.db, String(group.org_id)).distinct().execute();
      for (const m of members) {
        await req.db
          .insertInto('users_user_groups')
          .values({ id: randomUUID(), user_id: m.user_id, usergroup_id: group.id })
          .onConflict((oc) => oc.columns(['user_id', 'usergroup_id']).doNothing())
          .execute();
      }
      return { added: members.length };
    },
  );
}
