import { sql } from 'kysely';
import { ApiError } from '../../../http/errors.ts';
import { rt } from '../../../resource/messages.ts';
import { f, L } from '../../../resource/fields.ts';
import type { ResourceCtx, ResourceDef } from '../../../resource/types.ts';
import { removePlaybookDir } from './playbookFiles.ts';
import { PM, pm } from './playbookMessages.ts';
import { placeFiles, readUpload, uploadedFileName } from './playbookUpload.ts';

/**
 * Playbooks (`/api/v1/ops/playbooks/`, contract §4.16): org-scoped and the caller's own only
 * (`creator_id`), as in the original: nobody lists, reads, changes or deletes another user's
 * playbook, administrators included. Created blank (a `main.yml` is written) or from a zip
 * uploaded as multipart field `path` (playbookUpload.ts). Files live under
 * DATA_DIR/playbooks/<id>/ (playbookFiles.ts) and go with the row.
 */

const dataDir = (ctx: ResourceCtx) => ctx.req.server.deps.config.dataDir;

export const playbookResource: ResourceDef = {
  model: 'playbook',
  app: 'ops',
  url: '/api/v1/ops/playbooks/',
  table: 'ops_playbook',
  label: PM.model_playbook,
  orgScoped: true,
  defaultOrder: ['-date_created'],
  fieldsMini: ['id', 'name'],
  scope: (q, ctx) => q.where(sql.ref('ops_playbook.creator_id'), '=', ctx.req.user?.id ?? ''),
  fields: {
    id: f.id(),
    name: f.string(L.name, { required: true, search: true, filter: true, order: true }),
    path: f.string(PM.field_path, { readOnly: true, maxLength: 256 }),
    create_method: f.choice(
      PM.field_create_method,
      [
        { value: 'blank', label: PM.method_blank },
        { value: 'vcs', label: PM.method_vcs },
      ],
      { default: 'blank', filter: true },
    ),
    vcs_url: f.string(PM.field_vcs_url, { default: '', maxLength: 1024 }),
    comment: f.comment(),
    creator: f.computed('string', PM.field_creator, (r) => r.creator_id),
    created_by: f.createdBy(),
    date_created: f.dateCreated(),
    date_updated: f.dateUpdated(),
  },
  hooks: {
    async beforeValidate(_body, ctx, before) {
      if (!before) await readUpload(ctx.req, dataDir(ctx));
    },
    async validate(data, ctx) {
      const method = data.create_method ?? ctx.before?.create_method;
      const vcs = data.vcs_url ?? ctx.before?.vcs_url;
      if (method === 'vcs' || (typeof vcs === 'string' && vcs.trim()))
        return { create_method: [pm(ctx.req.lang, 'vcs_unsupported')] };
      return undefined;
    },
    beforeInsert(values, _data, ctx) {
      values.creator_id = ctx.req.user!.id;
      values.path = uploadedFileName(ctx.req);
    },
    afterCreate({ ctx, id }) {
      placeFiles(ctx.req, dataDir(ctx), id);
    },
    // A playbook a job runs stays until the job is changed or deleted (the job would fail later).
    async beforeDelete(row, ctx) {
      await refuseUsed(ctx, [String(row.id)]);
    },
    async beforeBulkDelete(ids, ctx) {
      await refuseUsed(ctx, ids);
    },
    afterDelete(rows, ctx) {
      for (const row of rows) removePlaybookDir(dataDir(ctx), String(row.id));
    },
  },
};

async function refuseUsed(ctx: ResourceCtx, ids: string[]): Promise<void> {
  if (!ids.length) return;
  const used = await ctx.db.selectFrom('ops_job').select('id').where('playbook_id', 'in', ids).executeTakeFirst();
  if (used) throw new ApiError(400, { detail: rt(ctx.req.lang, 'referenced'), code: 'referenced' });
}
