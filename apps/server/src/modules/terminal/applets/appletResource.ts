import { ApiError } from '../../../http/errors.ts';
import { f } from '../../../resource/fields.ts';
import { tr } from '../../../platform/i18n/catalogue.ts';
import type { Choice, ResourceDef } from '../../../resource/types.ts';
import { APPLET_EDITIONS, APPLET_TYPES } from './appletPackage.ts';
import { AM } from './appletMessages.ts';

/**
 * `terminal/applets/` (system-wide, `terminal.*_applet`): what the manifest said, read-only; an
 * administrator switches `is_active` and writes the comment. Applets are added and replaced by
 * uploading their zip (`applets/upload/`, appletRoutes.ts), never by a plain POST. `icon` is the
 * address of the package's icon.png, its digest in the query so a new upload shows at once.
 */
export const APPLETS_URL = '/api/v1/terminal/applets/';

const TYPES: Choice[] = APPLET_TYPES.map((v) => ({ value: v, label: AM[`type_${v}`] }));
const EDITIONS: Choice[] = APPLET_EDITIONS.map((v) => ({ value: v, label: AM[`edition_${v}`] }));
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const appletResource: ResourceDef = {
  model: 'applet',
  app: 'terminal',
  url: APPLETS_URL,
  table: 'terminal_applet',
  label: AM.model_applet,
  orgScoped: false,
  defaultOrder: ['name'],
  fieldsMini: ['id', 'name', 'display_name', 'is_active'],
  fields: {
    id: f.id(),
    name: f.string(AM.field_name, { readOnly: true, search: true, filter: true, order: true }),
    display_name: f.string(AM.field_display_name, { readOnly: true, search: true, order: true }),
    version: f.string(AM.field_version, { readOnly: true, filter: true, maxLength: 16 }),
    author: f.string(AM.field_author, { readOnly: true, search: true }),
    type: f.choice(AM.field_type, TYPES, { readOnly: true, filter: true }),
    edition: f.choice(AM.field_edition, EDITIONS, { readOnly: true, filter: true }),
    is_active: f.bool(AM.field_is_active, { default: true, filter: true }),
    builtin: f.bool(AM.field_builtin, { readOnly: true, filter: true }),
    can_concurrent: f.bool(AM.field_can_concurrent, { readOnly: true }),
    protocols: f.list(AM.field_protocols, { readOnly: true }),
    tags: f.list(AM.field_tags, { readOnly: true }),
    comment: { ...f.comment(), maxLength: 1024 },
    icon: f.computed('string', AM.field_icon, (r) => `${APPLETS_URL}${r.id}/icon/?v=${String(r.digest).slice(0, 16)}`),
    readme: f.string(AM.field_readme, { readOnly: true, noExport: true }),
    created_by: f.createdBy(),
    date_created: f.dateCreated(),
    date_updated: f.dateUpdated(),
  },
  // A detail URL names the applet by id or by name (a host installs `applets/<name>/download/`).
  lookup: (q, param) => q.where(UUID_RE.test(param) ? 'terminal_applet.id' : 'terminal_applet.name', '=', param),
  hooks: {
    beforeValidate(_body, ctx, before) {
      if (!before) throw new ApiError(400, { error: tr(ctx.req.lang, AM.create_by_upload) });
    },
    beforeDelete(row, ctx) {
      if (row.builtin === true || row.builtin === 1) throw new ApiError(400, { error: tr(ctx.req.lang, AM.builtin) });
    },
  },
};
