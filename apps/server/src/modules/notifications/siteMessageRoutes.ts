import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, validationError } from '../../http/errors.ts';
import { formatDateTime } from '../../http/datetime.ts';
import { t } from '../../http/messages.ts';
import { rt } from '../../resource/messages.ts';
import { toBool } from '../../platform/db/schema.ts';
import { pageOfResults } from '../../resource/pagination.ts';
import { pageOf } from '../../resource/query.ts';
import { sanitizeMessageHtml } from './sanitize.ts';
import { markRead, openMessage, sendSiteMessage, unreadTotal } from './siteMessages.ts';
import { shape } from '../../resource/describe.ts';
import { queryFlag } from '../../http/queryString.ts';
import { parseBool } from '../../resource/coerce.ts';

/** `/api/v1/notifications/site-messages/`: the caller's own messages. */
const BASE = '/api/v1/notifications/site-messages/';

type Query = Record<string, string | undefined>;

function baseQuery(req: FastifyRequest) {
  let q = req.db
    .selectFrom('notifications_sitemessage as m')
    .innerJoin('notifications_messagecontent as c', 'c.id', 'm.content_id')
    .leftJoin('users_user as s', 's.id', 'c.sender_id')
    .where('m.user_id', '=', req.user!.id);
  const hasRead = (req.query as Query).has_read;
  if (queryFlag(hasRead)) q = q.where('m.has_read', '=', true);
  if (parseBool(hasRead) === false) q = q.where('m.has_read', '=', false);
  return q;
}

function rowsQuery(req: FastifyRequest) {
  return baseQuery(req)
    .select([
      'm.id',
      'm.has_read',
      'm.read_at',
      'm.date_created',
      'c.id as content_id',
      'c.subject',
      'c.message',
      'c.sealed',
      'c.date_created as content_created',
      'c.date_updated as content_updated',
      'c.sender_id',
      's.name as sender_name',
    ])
    .orderBy('m.date_created', 'desc')
    .orderBy('m.id');
}

type Row = Awaited<ReturnType<ReturnType<typeof rowsQuery>['execute']>>[number];

function serialize(req: FastifyRequest, r: Row) {
  return {
    id: r.id,
    has_read: toBool(r.has_read),
    read_at: formatDateTime(r.read_at, req.tz),
    content: {
      id: r.content_id,
      subject: r.subject,
      message: sanitizeMessageHtml(openMessage(req.server.deps.secretBox, r, req.lang)),
      date_created: formatDateTime(r.content_created, req.tz),
      date_updated: formatDateTime(r.content_updated, req.tz),
      sender: r.sender_id ? { id: r.sender_id, name: r.sender_name ?? '' } : null,
    },
    date_created: formatDateTime(r.date_created, req.tz),
  };
}

async function list(req: FastifyRequest) {
  const p = pageOf(req.query as Query);
  if (!p) return (await rowsQuery(req).execute()).map((r) => serialize(req, r));
  const counted = await baseQuery(req)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  const count = Number(counted?.n ?? 0);
  const rows = await rowsQuery(req).limit(p.limit).offset(p.offset).execute();
  return pageOfResults(
    req,
    p,
    count,
    rows.map((r) => serialize(req, r)),
  );
}

async function retrieve(req: FastifyRequest<{ Params: { id: string } }>) {
  const row = await rowsQuery(req).where('m.id', '=', req.params.id).executeTakeFirst();
  if (!row)
    throw new ApiError(404, {
      detail: t(req.lang, 'object_not_found', { model: 'SiteMessage' }),
      code: 'object_does_not_exist',
    });
  return serialize(req, row);
}

async function markAsRead(req: FastifyRequest<{ Body: { ids?: unknown } }>) {
  const ids = req.body?.ids;
  if (!Array.isArray(ids) || ids.some((i) => typeof i !== 'string'))
    throw validationError({ ids: [t(req.lang, 'field_required')] });
  await markRead(req.db, req.server.deps.bus, req.user!.id, ids as string[]);
  return { detail: 'ok' };
}

async function markAllAsRead(req: FastifyRequest) {
  await markRead(req.db, req.server.deps.bus, req.user!.id);
  return { detail: 'ok' };
}

interface SendBody {
  subject?: unknown;
  message?: unknown;
  user_ids?: unknown;
  group_ids?: unknown;
  is_broadcast?: unknown;
}

const stringList = (v: unknown): string[] | undefined =>
  v === undefined || v === null
    ? []
    : Array.isArray(v) && v.every((x) => typeof x === 'string')
      ? (v as string[])
      : undefined;

/** `POST send/`: superusers (no builtin role holds `notifications.add_sitemessage`). */
async function send(req: FastifyRequest<{ Body: SendBody }>, reply: FastifyReply) {
  const body = req.body ?? {};
  const errors: Record<string, string[]> = {};
  const subject = typeof body.subject === 'string' ? body.subject.trim() : '';
  const message = typeof body.message === 'string' ? body.message : '';
  if (!subject) errors.subject = [t(req.lang, 'field_required')];
  else if (subject.length > 1024) errors.subject = [rt(req.lang, 'max_length', { n: 1024 })];
  if (!message.trim()) errors.message = [t(req.lang, 'field_required')];
  const userIds = stringList(body.user_ids);
  const groupIds = stringList(body.group_ids);
  if (!userIds) errors.user_ids = ['Expected a list of items.'];
  if (!groupIds) errors.group_ids = ['Expected a list of items.'];
  const isBroadcast = body.is_broadcast === true;
  if (Object.keys(errors).length) throw validationError(errors);
  const recipients = new Set<string>();
  if (userIds!.length) {
    for (const r of await req.db.selectFrom('users_user').select('id').where('id', 'in', userIds!).execute())
      recipients.add(r.id);
  }
  if (groupIds!.length) {
    const members = await req.db
      .selectFrom('users_user_groups')
      .select('user_id')
      .where('usergroup_id', 'in', groupIds!)
      .execute();
    for (const r of members) recipients.add(r.user_id);
  }
  if (!isBroadcast && recipients.size === 0) throw validationError({ non_field_errors: [t(req.lang, 'no_recipient')] });
  await sendSiteMessage(req.db, req.server.deps.bus, {
    text: { subject, message },
    userIds: [...recipients],
    senderId: req.user!.id,
    isBroadcast,
  });
  return reply.code(201).send({ detail: 'ok' });
}

export function registerSiteMessageRoutes(app: FastifyInstance): void {
  const message = {
    config: {
      describe: shape('site_message', {
        id: 'string',
        has_read: 'boolean',
        read_at: 'datetime',
        content: 'json',
        date_created: 'datetime',
      }),
    },
  };
  app.get(BASE, message, list);
  app.get(
    `${BASE}unread-total/`,
    { config: { describe: shape('site_message', { total: 'integer' }) } },
    async (req) => ({ total: await unreadTotal(req.db, req.user!.id) }),
  );
  app.patch(`${BASE}mark-as-read/`, markAsRead);
  app.patch(`${BASE}mark-as-read-all/`, markAllAsRead);
  app.post(`${BASE}send/`, { config: { perm: 'notifications.add_sitemessage' } }, send);
  app.get(`${BASE}:id/`, message, retrieve);
}
