import { sql } from 'kysely';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { f, L } from '../../resource/fields.ts';
import type { ResourceDef } from '../../resource/types.ts';
import { orgMemberIds } from '../rbac/orgMembers.ts';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type usersMessages from '../../platform/i18n/locales/en/users.json';
const M = catalogue<typeof usersMessages>('users');

/** User groups (`/api/v1/users/groups/`, the JumpServer API): org-scoped; members are users of the org. */
export const groupResource: ResourceDef = {
  model: 'usergroup',
  app: 'users',
  url: '/api/v1/users/groups/',
  table: 'users_usergroup',
  label: M.user_group,
  orgScoped: true,
  fieldsMini: ['id', 'name'],
  fieldsSmall: ['id', 'name', 'comment'],
  defaultOrder: ['name'],
  fields: {
    id: f.id(),
    name: f.string(L.name, { required: true, unique: true, search: true, filter: true, order: true }),
    users: f.m2m(M.user, {
      table: 'users_user',
      through: { table: 'users_user_groups', left: 'usergroup_id', right: 'user_id' },
      choosable: (q, ctx) =>
        ctx.req.org.id === ROOT_ORG_ID
          ? q
          : q.where(sql.ref('users_user.id'), 'in', orgMemberIds(ctx.db, ctx.req.org.id)),
    }),
    users_amount: f.computed('integer', M.users_amount, (r) => Number(r.__users_amount ?? 0)),
    comment: f.comment(),
    created_by: f.createdBy(),
    date_created: f.dateCreated(),
    date_updated: f.dateUpdated(),
  },
  async prepare(rows, ctx) {
    if (!rows.length) return;
    const counts = await ctx.db
      .selectFrom('users_user_groups')
      .select(['usergroup_id', (eb) => eb.fn.countAll().as('n')])
      .where(
        'usergroup_id',
        'in',
        rows.map((r) => r.id),
      )
      .groupBy('usergroup_id')
      .execute();
    const by = new Map(counts.map((c) => [c.usergroup_id, Number(c.n)]));
    for (const r of rows) r.__users_amount = by.get(r.id) ?? 0;
  },
};
