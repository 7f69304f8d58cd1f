import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ROOT_ORG_ID,
  SYSTEM_ORG_ID,
  settingCategoryPerm,
  settingFields,
  type SettingFields,
} from '@gatehouse/contract';
import { ApiError, permissionDenied } from '../../http/errors.ts';
import { can, requestPerms } from '../../http/permissions.ts';
import { display, recordOperation, type DiffItem } from '../../resource/audit.ts';
import { rt } from '../../resource/messages.ts';
import { jsType } from '../../resource/coerce.ts';
import { registerLoggedModel } from '../../resource/registry.ts';
import { tr } from '../../platform/i18n/catalogue.ts';
import { isSecret, SM, validateCategory } from './settingValidate.ts';
import { describeCategory } from './settingLabels.ts';

/**
 * `/api/v1/settings/setting/?category=<c>` (GET, PUT, PATCH): the fields of a category as declared
 * in packages/contract/src/settingCategories.ts. The route declares the weakest permission
 * (`settings.view_setting`); the category's own permission is checked inside, and writes on
 * `basic` also need `settings.change_setting` (the original lets any viewer of the settings change
 * the site URL that goes out in mails). Each save is one transaction and one operate-log row.
 */
const ROUTE = '/api/v1/settings/setting/';
const MODEL = { model: 'setting', label: SM.model_setting };
const MASK = '******';

function categoryOf(req: FastifyRequest): string {
  const c = (req.query as Record<string, unknown>).category;
  return typeof c === 'string' && c.trim() !== '' ? c.trim() : 'basic';
}

async function requireCategory(req: FastifyRequest, category: string, write: boolean): Promise<void> {
  const perm = settingCategoryPerm(category);
  const allowed =
    perm === 'superuser'
      ? (await requestPerms(req)).isSuperuser
      : (await can(req, perm)) && (!write || category !== 'basic' || (await can(req, 'settings.change_setting')));
  if (!allowed) throw permissionDenied(req);
}

async function current(req: FastifyRequest, fields: SettingFields): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields))
    if (!isSecret(field)) out[name] = await req.server.deps.settings.valueOf(name);
  return out;
}

/**
 * Organisation lists (where directory users become members) name existing organisations users
 * can join: not the global view nor the system-setting org.
 */
async function unknownOrgs(
  req: FastifyRequest,
  fields: SettingFields,
  values: Record<string, unknown>,
): Promise<Record<string, string[]> | undefined> {
  const errors: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(values)) {
    if (fields[name]?.type !== 'orgs' || !Array.isArray(value) || !value.length) continue;
    const ids = (value as string[]).filter((id) => id !== ROOT_ORG_ID && id !== SYSTEM_ORG_ID);
    const found = ids.length
      ? await req.db.selectFrom('orgs_organization').select('id').where('id', 'in', ids).execute()
      : [];
    const bad = (value as string[]).find((id) => !found.some((o) => o.id === id));
    if (bad) errors[name] = [tr(req.lang, SM.unknown_org, { value: bad })];
  }
  return Object.keys(errors).length ? errors : undefined;
}

async function save(req: FastifyRequest, partial: boolean): Promise<Record<string, unknown>> {
  const category = categoryOf(req);
  await requireCategory(req, category, true);
  const fields = settingFields(category);
  const body = req.body ?? {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw new ApiError(400, { non_field_errors: [rt(req.lang, 'not_a_dict', { type: jsType(body) })] });
  const checked = validateCategory(fields, body as Record<string, unknown>, partial, req.lang);
  if (!checked.ok) throw new ApiError(400, checked.errors);
  const orgErrors = await unknownOrgs(req, fields, checked.values);
  if (orgErrors) throw new ApiError(400, orgErrors);
  const before = await current(req, fields);
  const diff: DiffItem[] = [];
  for (const [name, value] of Object.entries(checked.values)) {
    if (isSecret(fields[name]!)) diff.push({ field: name, before: MASK, after: MASK });
    else if (JSON.stringify(before[name]) !== JSON.stringify(value))
      diff.push({ field: name, before: display(before[name]), after: display(value) });
  }
  if (diff.length > 0) {
    const secrets = new Set(Object.keys(checked.values).filter((n) => isSecret(fields[n]!)));
    await req.server.deps.settings.setMany(checked.values, category, secrets);
    await recordOperation(req.db, req, {
      action: 'update',
      def: MODEL,
      resourceId: category.slice(0, 36),
      resourceName: tr(req.lang, SM.category_saved, { category }),
      orgId: undefined,
      diff,
    });
  }
  return current(req, fields);
}

export function registerSettingRoutes(app: FastifyInstance): void {
  registerLoggedModel(MODEL);
  const config = { perm: 'settings.view_setting' };
  const describe = (req: FastifyRequest) => describeCategory(categoryOf(req), settingFields(categoryOf(req)));
  app.get(ROUTE, { config: { ...config, describe } }, async (req) => {
    const category = categoryOf(req);
    await requireCategory(req, category, false);
    return current(req, settingFields(category));
  });
  app.patch(ROUTE, { config }, (req) => save(req, true));
  app.put(ROUTE, { config }, (req) => save(req, false));
}
