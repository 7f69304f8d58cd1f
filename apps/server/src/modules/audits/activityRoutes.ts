import type { FastifyInstance, FastifyRequest } from 'fastify';
import { t } from '../../http/messages.ts';
import { ROOT_ORG_ID, SYSTEM_ORG_ID, type Language } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { defOf, loggedModelOf } from '../../resource/registry.ts';
import { findVisible } from '../../resource/routes.ts';
import { formatDateTime } from '../../http/datetime.ts';
import { serializeOne } from '../../resource/serialize.ts';
import { operateLogResource } from './operateLogResource.ts';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type auditsMessages from '../../platform/i18n/locales/en/audits.json';
import { shape } from '../../resource/describe.ts';
const M = catalogue<typeof auditsMessages>('audits');

/**
 * `GET /api/v1/audits/activities/?resource_id=`: the newest 30 activities of
 * an object in the last 30 days, and `GET operate-logs/<id>/?type=action_detail` for the diff.
 */
const ACTIONS: Record<string, { en: string; zh: string; ja: string }> = {
  create: M.create,
  update: M.update,
  delete: M.delete,
};

const LIMIT = 30;
const DAYS = 30;

function content(detail: string, lang: Language): string {
  try {
    const d = JSON.parse(detail) as { user: string; action: string; model: string; resource: string };
    const type = loggedModelOf(d.model)?.label[lang] ?? d.model;
    const verb = ACTIONS[d.action]?.[lang] ?? d.action;
    return lang === 'en'
      ? `${d.user} ${verb} ${type.toLowerCase()} ${d.resource}`
      : `${d.user} ${verb}${type} ${d.resource}`;
  } catch {
    return detail;
  }
}

function localTimestamp(iso: string, tz: string): string {
  const f = formatDateTime(iso, tz) ?? iso;
  return f.slice(0, 19).replace(/\//g, '-');
}

/**
 * Logs of objects outside organisations (users, platforms) are written under the system org and
 * read from every org, but only for an object the current org can see: a user who belongs only
 * to another org has no activities here.
 */
async function visibleHere(req: FastifyRequest, model: string | undefined, resourceId: string): Promise<boolean> {
  if (req.org.id === ROOT_ORG_ID) return true;
  const def = defOf(model ?? 'user');
  if (!def) return false;
  try {
    await findVisible(def, { req, db: req.db }, resourceId);
    return true;
  } catch {
    return false;
  }
}

function modelOf(detail: string): string | undefined {
  try {
    const model = (JSON.parse(detail) as { model?: unknown }).model;
    return typeof model === 'string' ? model : undefined;
  } catch {
    return undefined;
  }
}

export function registerActivityRoutes(app: FastifyInstance): void {
  app.get(
    '/api/v1/audits/activities/',
    {
      config: {
        perm: 'audits.view_activitylog',
        describe: shape('activity', {
          id: 'string',
          timestamp: 'string',
          detail_url: 'string',
          content: 'string',
          r_type: 'string',
        }),
      },
    },
    async (req: FastifyRequest) => {
      const id = (req.query as { resource_id?: string }).resource_id;
      if (!id) throw new ApiError(400, { resource_id: ['This field is required.'] });
      const since = new Date(Date.now() - DAYS * 86400_000).toISOString();
      let q = req.db
        .selectFrom('audits_activitylog')
        .selectAll()
        .where('resource_id', '=', id)
        .where('datetime', '>=', since);
      // Objects outside organisations (users, platforms) log under the system org.
      if (req.org.id !== ROOT_ORG_ID) q = q.where('org_id', 'in', [req.org.id, SYSTEM_ORG_ID]);
      let rows = await q.orderBy('datetime', 'desc').limit(LIMIT).execute();
      const systemRows = rows.filter((r) => r.org_id === SYSTEM_ORG_ID);
      if (systemRows.length && !(await visibleHere(req, modelOf(systemRows[0]!.detail), id)))
        rows = rows.filter((r) => r.org_id !== SYSTEM_ORG_ID);
      return rows.map((r) => ({
        id: r.id,
        timestamp: localTimestamp(r.datetime, req.tz),
        detail_url:
          r.type === 'O' && r.detail_id ? `/api/v1/audits/operate-logs/${r.detail_id}/?type=action_detail` : '',
        content: content(r.detail, req.lang),
        r_type: r.type,
      }));
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/v1/audits/operate-logs/:id/',
    { config: { perm: 'audits.view_operatelog | audits.view_activitylog', describe: operateLogResource } },
    async (req) => {
      let q = req.db.selectFrom('audits_operatelog').selectAll().where('id', '=', req.params.id);
      if (req.org.id !== ROOT_ORG_ID) q = q.where('org_id', 'in', [req.org.id, SYSTEM_ORG_ID]);
      let log = await q.executeTakeFirst();
      if (log?.org_id === SYSTEM_ORG_ID && !(await visibleHere(req, log.resource_type, log.resource_id)))
        log = undefined;
      if (!log)
        throw new ApiError(404, {
          detail: t(req.lang, 'object_not_found', { model: 'OperateLog' }),
          code: 'object_does_not_exist',
        });
      const def = loggedModelOf(log.resource_type);
      const diff = (JSON.parse(log.diff) as { field: string; before: string; after: string }[]).map((d) => ({
        field: def?.fields?.[d.field]?.label[req.lang] ?? d.field,
        before: d.before,
        after: d.after,
      }));
      if ((req.query as { type?: string }).type === 'action_detail') return { diff };
      // The list's fields (labels in the reader's language, org name), and the diff.
      return { ...(await serializeOne(operateLogResource, { req, db: req.db }, log)), diff };
    },
  );
}
