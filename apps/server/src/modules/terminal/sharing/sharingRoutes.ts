import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasPermission } from '@gatehouse/contract';
import { ApiError } from '../../../http/errors.ts';
import { effectivePerms } from '../../../http/rbac.ts';
import { orgMemberIds } from '../../rbac/orgMembers.ts';
import { pageOfResults } from '../../../resource/pagination.ts';
import { containsCi, pageOf } from '../../../resource/query.ts';
import { serializeOne } from '../../../resource/serialize.ts';
import { joinRecordResource } from '../joinRecordResource.ts';
import {
  invitedIds,
  joinRefusal,
  JOIN_RECORD_URL,
  MAX_FAILURES,
  MAX_MINUTES,
  MAX_USERS,
  newVerifyCode,
  shareable,
  SHARING_URL,
  sharingOut,
  sm,
  type SharingMessageKey,
  type SharingRow,
} from './sharingRules.ts';
import { shape } from '../../../resource/describe.ts';

/**
 * `/api/v1/terminal/session-sharings/` and the joiner's side of `session-join-records/` (rules:
 * sharingRules.ts). Every signed-in user may share a running session of their own (the gateway
 * is in-process, so the user's page asks, not a component); `terminal.add_supersessionsharing` in
 * the session's org shares anyone's. Each user lists and stops only the sharings they created.
 * Joining: `POST session-join-records/ {sharing, verify_code}` checks the code and the invitation
 * and answers the join record, whose id then opens the monitor socket (`?join_record_id=`): the
 * code never travels in a URL. `SECURITY_SESSION_SHARE` off: 405 on creation and joining.
 */
type Body = Record<string, unknown>;
const body = (req: FastifyRequest): Body =>
  req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Body) : {};

const bad = (req: FastifyRequest, field: string, key: SharingMessageKey, params?: Record<string, string | number>) =>
  new ApiError(400, { [field]: [sm(req.lang, key, params)], code: 'invalid' });
/** The contract's join refusals: `{"error": ...}`. */
const refused = (req: FastifyRequest, status: number, key: SharingMessageKey) =>
  new ApiError(status, { error: sm(req.lang, key), code: key });

async function sharingEnabled(req: FastifyRequest): Promise<void> {
  if ((await req.server.deps.settings.get('SECURITY_SESSION_SHARE')) === false)
    throw new ApiError(405, { detail: sm(req.lang, 'disabled'), code: 'method_not_allowed' });
}

async function usersDisplay(req: FastifyRequest, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await req.db
    .selectFrom('users_user')
    .select(['id', 'name', 'username'])
    .where('id', 'in', ids)
    .execute();
  return rows.map((u) => `${u.name}(${u.username})`);
}

const out = async (req: FastifyRequest, s: SharingRow) =>
  sharingOut(s, req.lang, await usersDisplay(req, invitedIds(s)));

/** Whether the user is a member of the org (an org-scoped binding there) or a superuser. */
async function memberOf(req: FastifyRequest, userId: string, orgId: string): Promise<boolean> {
  const binding = await req.db
    .selectFrom('rbac_rolebinding')
    .select('id')
    .where('user_id', '=', userId)
    .where('scope', '=', 'org')
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  return Boolean(binding) || (await effectivePerms(req.db, userId, orgId)).isSuperuser;
}

/** The invited users: active members of the session's org, each named once. */
async function readUsers(req: FastifyRequest, raw: unknown, orgId: string): Promise<string[]> {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw) || raw.some((x) => typeof x !== 'string'))
    throw bad(req, 'users', 'users_invalid', { users: '?' });
  const ids = [...new Set(raw as string[])];
  if (ids.length > MAX_USERS) throw bad(req, 'users', 'users_too_many', { max: MAX_USERS });
  if (!ids.length) return [];
  const found = await req.db
    .selectFrom('users_user')
    .select('id')
    .where('id', 'in', ids)
    .where('is_active', '=', true)
    .execute();
  const ok = new Set<string>();
  for (const u of found) if (await memberOf(req, u.id, orgId)) ok.add(u.id);
  const wrong = ids.filter((id) => !ok.has(id));
  if (wrong.length) throw bad(req, 'users', 'users_invalid', { users: wrong.slice(0, 5).join(', ') });
  return ids;
}

function readMinutes(req: FastifyRequest, raw: unknown): number {
  if (raw === undefined || raw === null || raw === '') return 10;
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_MINUTES)
    throw bad(req, 'expired_time', 'expired_time_invalid');
  return n;
}

function readPermission(req: FastifyRequest, raw: unknown): 'readonly' | 'writable' {
  const v = raw && typeof raw === 'object' ? (raw as { value?: unknown }).value : raw;
  if (v === undefined || v === null || v === '') return 'readonly';
  if (v !== 'readonly' && v !== 'writable') throw bad(req, 'action_permission', 'action_permission_invalid');
  return v;
}

function requestOrigin(req: FastifyRequest): string {
  const origin = req.headers.origin;
  if (typeof origin === 'string' && /^https?:\/\/[^/\s]{1,200}$/.test(origin)) return origin;
  return `${req.protocol}://${req.host}`.slice(0, 256);
}

async function ownSharing(req: FastifyRequest, id: string): Promise<SharingRow> {
  const row = await req.db
    .selectFrom('terminal_sessionsharing')
    .selectAll()
    .where('id', '=', id.slice(0, 64))
    .where('creator_id', '=', req.user!.id)
    .executeTakeFirst();
  if (!row) throw new ApiError(404, { detail: sm(req.lang, 'not_found'), code: 'not_found' });
  return row;
}

const sameCode = (a: string, b: string) => {
  const x = Buffer.from(a.trim().toUpperCase());
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export function registerSharingRoutes(app: FastifyInstance): void {
  const sharing = {
    config: {
      describe: shape('session_sharing', {
        id: 'string',
        session: 'string',
        creator: 'string',
        verify_code: 'string',
        is_active: 'boolean',
        expired_time: 'integer',
        users_display: 'string',
        action_permission: 'labeled_choice',
        origin: 'string',
        url: 'string',
        created_by: 'string',
        date_created: 'datetime',
        date_updated: 'datetime',
      }),
    },
  };
  app.get(SHARING_URL, sharing, async (req) => {
    const q = req.query as Record<string, unknown>;
    let query = req.db.selectFrom('terminal_sessionsharing').selectAll().where('creator_id', '=', req.user!.id);
    if (!req.org.is_root) query = query.where('org_id', '=', req.org.id);
    if (typeof q.session === 'string') query = query.where('session_id', '=', q.session.slice(0, 64));
    const rows = await query.orderBy('date_created', 'desc').execute();
    const page = pageOf(q as never);
    const list = page ? rows.slice(page.offset, page.offset + page.limit) : rows;
    const results = await Promise.all(list.map((r) => out(req, r)));
    return page ? pageOfResults(req, page, rows.length, results) : results;
  });

  // Whom the owner of a running session may invite: up to 10 active members of its org matching `search`.
  app.get(
    `${SHARING_URL}users/`,
    { config: { describe: shape('user', { id: 'string', name: 'string', username: 'string' }) } },
    async (req) => {
      const q = req.query as Record<string, unknown>;
      const session = await req.db
        .selectFrom('terminal_session')
        .select(['org_id', 'user_id'])
        .where('id', '=', typeof q.session === 'string' ? q.session.slice(0, 64) : '')
        .executeTakeFirst();
      if (!session || session.user_id !== req.user!.id) throw bad(req, 'session', 'session_not_found');
      const search = typeof q.search === 'string' ? q.search.trim().slice(0, 128) : '';
      let users = req.db
        .selectFrom('users_user')
        .select(['id', 'name', 'username'])
        .where('is_active', '=', true)
        .where('id', '!=', req.user!.id)
        .where('id', 'in', orgMemberIds(req.db, session.org_id));
      if (search) {
        const ctx = { req, db: req.db };
        users = users.where((eb) =>
          eb.or(['name', 'username', 'email'].map((c) => containsCi(ctx, `users_user.${c}`, search))),
        );
      }
      return users.orderBy('username').limit(10).execute();
    },
  );

  app.get(`${SHARING_URL}:id/`, sharing, async (req) =>
    out(req, await ownSharing(req, (req.params as { id: string }).id)),
  );

  app.post(SHARING_URL, async (req, reply) => {
    await sharingEnabled(req);
    const b = body(req);
    if (typeof b.session !== 'string' || !b.session) throw bad(req, 'session', 'session_required');
    const me = req.user!;
    const session = await req.db
      .selectFrom('terminal_session')
      .select(['id', 'user_id', 'org_id', 'is_finished', 'type', 'login_from'])
      .where('id', '=', b.session.slice(0, 64))
      .executeTakeFirst();
    let mayShare = session?.user_id === me.id;
    if (session && !mayShare) {
      const eff = await effectivePerms(req.db, me.id, session.org_id);
      mayShare = eff.isSuperuser || hasPermission(eff.perms, 'terminal.add_supersessionsharing');
    }
    // Another user's session looks like none at all to whoever may not share it.
    if (!session || !mayShare) throw bad(req, 'session', 'session_not_found');
    if (!shareable(session)) throw bad(req, 'session', 'session_not_shareable');
    const minutes = readMinutes(req, b.expired_time);
    const permission = readPermission(req, b.action_permission);
    const users = await readUsers(req, b.users, session.org_id);
    const now = new Date().toISOString();
    const row: SharingRow = {
      id: randomUUID(),
      session_id: session.id,
      creator_id: me.id,
      verify_code: newVerifyCode(),
      is_active: true,
      expired_time: minutes,
      users: JSON.stringify(users),
      action_permission: permission,
      origin: requestOrigin(req),
      failed_attempts: 0,
      created_by: me.username,
      date_created: now,
      date_updated: now,
      org_id: session.org_id,
    };
    await req.db.insertInto('terminal_sessionsharing').values(row).execute();
    return reply.code(201).send(await out(req, row));
  });

  // Stopping a sharing: `is_active: false` (joiners still watching are sent away within a second).
  app.patch(`${SHARING_URL}:id/`, async (req) => {
    const row = await ownSharing(req, (req.params as { id: string }).id);
    const active = body(req).is_active;
    if (active !== undefined && typeof active !== 'boolean') throw bad(req, 'is_active', 'is_active_invalid');
    if (active !== undefined) {
      const now = new Date().toISOString();
      // A sharing locked out by wrong codes stays stopped.
      const next = active && row.failed_attempts < MAX_FAILURES;
      await req.db
        .updateTable('terminal_sessionsharing')
        .set({ is_active: next, date_updated: now })
        .where('id', '=', row.id)
        .execute();
      Object.assign(row, { is_active: next, date_updated: now });
    }
    return out(req, row);
  });

  app.post(JOIN_RECORD_URL, async (req, reply) => {
    await sharingEnabled(req);
    const b = body(req);
    const me = req.user!;
    if (typeof b.sharing !== 'string' || !b.sharing) throw refused(req, 400, 'sharing_required');
    const sharing = await req.db
      .selectFrom('terminal_sessionsharing')
      .selectAll()
      .where('id', '=', b.sharing.slice(0, 64))
      .executeTakeFirst();
    if (!sharing || (typeof b.session === 'string' && b.session !== sharing.session_id))
      throw refused(req, 400, 'not_found');
    const session = await req.db
      .selectFrom('terminal_session')
      .select(['is_finished', 'type', 'login_from'])
      .where('id', '=', sharing.session_id)
      .executeTakeFirst();
    const member = await memberOf(req, me.id, sharing.org_id);
    const refusal = joinRefusal(sharing, session, { userId: me.id, member });
    if (refusal) throw refused(req, refusal === 'not_invited' ? 403 : 400, refusal);
    if (typeof b.verify_code !== 'string' || !b.verify_code.trim()) throw refused(req, 400, 'code_required');
    const ok = sameCode(b.verify_code.slice(0, 64), sharing.verify_code);
    const now = new Date().toISOString();
    const record = {
      id: randomUUID(),
      session_id: sharing.session_id,
      sharing_id: sharing.id,
      joiner_id: me.id,
      joiner_display: `${me.name}(${me.username})`,
      verify_code: ok ? sharing.verify_code : '',
      action_permission: sharing.action_permission,
      remote_addr: req.ip,
      login_from: 'WT',
      is_success: ok,
      reason: ok ? '' : sm(req.lang, 'code_wrong'),
      is_finished: !ok,
      date_joined: now,
      date_left: ok ? null : now,
      created_by: me.username,
      date_created: now,
      date_updated: now,
      org_id: sharing.org_id,
    };
    await req.db.insertInto('terminal_sessionjoinrecord').values(record).execute();
    if (!ok) {
      const after = await req.db
        .updateTable('terminal_sessionsharing')
        .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1), date_updated: now }))
        .where('id', '=', sharing.id)
        .returning('failed_attempts')
        .executeTakeFirst();
      if ((after?.failed_attempts ?? MAX_FAILURES) >= MAX_FAILURES) {
        await req.db
          .updateTable('terminal_sessionsharing')
          .set({ is_active: false })
          .where('id', '=', sharing.id)
          .execute();
        throw refused(req, 400, 'locked_out');
      }
      throw refused(req, 400, 'code_wrong');
    }
    return reply.code(201).send(await serializeOne(joinRecordResource, { req, db: req.db }, record));
  });

  app.patch(`${JOIN_RECORD_URL}:id/finished/`, async (req) => {
    const id = (req.params as { id: string }).id.slice(0, 64);
    const now = new Date().toISOString();
    const res = await req.db
      .updateTable('terminal_sessionjoinrecord')
      .set({ is_finished: true, date_left: now, date_updated: now })
      .where('id', '=', id)
      .where('joiner_id', '=', req.user!.id)
      .where('is_finished', '=', false)
      .executeTakeFirst();
    if (!Number(res.numUpdatedRows))
      throw new ApiError(404, { detail: sm(req.lang, 'join_not_found'), code: 'not_found' });
    return { ok: true };
  });
}
