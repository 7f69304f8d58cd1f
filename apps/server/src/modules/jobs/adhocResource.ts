import { sql } from 'kysely';
import { f } from '../../resource/fields.ts';
import type { ResourceDef } from '../../resource/types.ts';
import { JM } from './jobMessages.ts';
import { ADHOC_MODULES, moduleChoices } from './jobModules.ts';

/** Saved ad-hoc commands (`ops/adhocs/`): each user sees and changes only their own, in the current org. */
export const adhocResource: ResourceDef = {
  model: 'adhoc',
  app: 'ops',
  url: '/api/v1/ops/adhocs/',
  table: 'ops_adhoc',
  label: JM.model_adhoc,
  orgScoped: true,
  defaultOrder: ['-date_updated'],
  fields: {
    id: f.id(),
    name: f.string(JM.f_name, { required: true, search: true, filter: true, order: true }),
    module: f.choice(JM.f_module, moduleChoices(ADHOC_MODULES), { default: 'shell', filter: true }),
    args: f.text(JM.f_args, { default: '', search: true }),
    comment: f.comment(),
    creator: f.computed('json', JM.f_creator, (r) => ({ id: r.creator_id, name: r.created_by })),
    date_created: f.dateCreated(),
    date_updated: f.dateUpdated(),
  },
  scope: (q, ctx) => q.where(sql.ref('ops_adhoc.creator_id'), '=', ctx.req.user?.id ?? ''),
  hooks: {
    beforeInsert(values, _data, ctx) {
      values.creator_id = ctx.req.user!.id;
    },
  },
};
