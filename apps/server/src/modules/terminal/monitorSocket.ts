import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { Selectable } from 'kysely';
import { hasPermission, type Language } from '@gatehouse/contract';
import { toBool } from '../../platform/db/schema.ts';
import type { TerminalSessionTable } from '../../platform/db/tables/terminal.ts';
import { effectivePerms } from '../../http/rbac.ts';
import { gatewayOf } from './gatewayInstance.ts';
import { tm } from './gateway/gatewayError.ts';
import { mayReachThroughTicket } from './ticketSessionAccess.ts';
import {
  expiresAt,
  JOIN_ATTACH_MS,
  joinRefusal,
  MAX_FAILURES,
  shareable,
  sm,
  type SharingRow,
} from './sharing/sharingRules.ts';

/**
 * Watching a running session, read-only: `/koko/ws/monitor/?session_id=<id>` (signed in by the
 * session cookie, behind http/websocketGuard.ts). The caller must hold `terminal.monitor_session`
 * and `terminal.view_session` in the session's own org (whatever org the console is in: the page
 * is opened from a link). The socket follows `registry.watch` (the bus, so the session may run on
 * any instance): first the screen as it stands, then the output. Nothing the page sends reaches
 * the session (but a writable sharing's, below). Each watch writes a join record (`terminal_sessionjoinrecord`, readonly), closed
 * when the watcher leaves or the session ends. With `&ticket_id=<id>` the current reviewer of the
 * login-asset or command ticket linked to the session watches without those permissions
 * (`ticketSessionAccess.ts`); its pause and end go through the for-ticket task routes.
 * A sharing's joiner comes with `?join_record_id=<id>` instead (sharing/sharingRoutes.ts made the
 * record when the verify code was right; it must be theirs and under a minute old): read-only or,
 * for a writable sharing, typing into the session through the bus; the owner's page is told who
 * came and went; a stopped or expired sharing sends its joiners away.
 *   server -> page  {type:'CONNECT', id, data:{session:{id,user,asset,account,org_id,is_locked}, can_terminate, permission}}
 *                   {type:'TERMINAL_DATA', data}  {type:'TERMINAL_ERROR', err}  {type:'CLOSE', reason}
 * The end is noticed by reading the row every END_POLL_MS (the session may be on another instance).
 */
export const MONITOR_SOCKET_PATH = '/koko/ws/monitor/';
const END_POLL_MS = 1000;
/** The most a joiner may send in one message (a paste), in characters. */
const MAX_INPUT = 64 * 1024;

function send(socket: WebSocket, msg: Record<string, unknown>): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg));
}

function refuse(socket: WebSocket, err: string): void {
  send(socket, { type: 'TERMINAL_ERROR', err });
  send(socket, { type: 'CLOSE', reason: 'error' });
  socket.close(4000, 'refused');
}

interface Access {
  row: Selectable<TerminalSessionTable>;
  /** The join record: written here for a monitor, made by `POST session-join-records/` for a sharing. */
  recordId: string;
  permission: 'readonly' | 'writable';
  canTerminate: boolean;
  /** Joined through a sharing: it must stay active and unexpired. */
  sharing?: SharingRow;
  display: string;
}

/** A monitor: the session's org permissions, or the reviewer of its ticket. */
async function monitorAccess(app: FastifyInstance, req: FastifyRequest, id: string): Promise<Access | string> {
  const user = req.user!;
  const db = app.deps.database.db;
  const q = req.query as Record<string, unknown>;
  const row = id
    ? await db.selectFrom('terminal_session').selectAll().where('id', '=', id).executeTakeFirst()
    : undefined;
  const ticketId = typeof q.ticket_id === 'string' ? q.ticket_id.slice(0, 64) : '';
  const eff = row ? await effectivePerms(db, user.id, row.org_id) : undefined;
  const allowed = (p: string[]) => Boolean(eff && (eff.isSuperuser || hasPermission(eff.perms, p)));
  const reviewer = Boolean(row && (await mayReachThroughTicket({ userId: user.id, sessionId: row.id, ticketId })));
  // A session the caller may not see looks like one that does not run.
  if (!row || !(reviewer || allowed(['terminal.view_session']))) return tm(req.lang, 'monitor_not_running');
  if (!reviewer && !allowed(['terminal.monitor_session'])) return tm(req.lang, 'monitor_denied');
  if (!shareable(row)) return tm(req.lang, 'monitor_not_running');
  const now = new Date().toISOString();
  const recordId = randomUUID();
  const display = `${user.name}(${user.username})`;
  await db
    .insertInto('terminal_sessionjoinrecord')
    .values({
      id: recordId,
      session_id: row.id,
      joiner_id: user.id,
      joiner_display: display,
      verify_code: '',
      action_permission: 'readonly',
      remote_addr: req.ip,
      login_from: 'WT',
      is_success: true,
      reason: '',
      is_finished: false,
      date_joined: now,
      date_left: null,
      created_by: user.username,
      date_created: now,
      date_updated: now,
      org_id: row.org_id,
    })
    .execute();
  // A reviewer pauses and ends it through the ticket's task routes (tickets/sessionControlRoutes.ts).
  return {
    row,
    recordId,
    permission: 'readonly',
    canTerminate: reviewer || allowed(['terminal.terminate_session']),
    display,
  };
}

/** A sharing's joiner: their own fresh join record, made when the verify code was right. */
async function sharingAccess(app: FastifyInstance, req: FastifyRequest, joinId: string): Promise<Access | string> {
  const db = app.deps.database.db;
  const since = new Date(Date.now() - JOIN_ATTACH_MS).toISOString();
  const record = await db
    .selectFrom('terminal_sessionjoinrecord')
    .selectAll()
    .where('id', '=', joinId)
    .where('joiner_id', '=', req.user!.id)
    .where('is_success', '=', true)
    .where('is_finished', '=', false)
    .where('date_joined', '>', since)
    .executeTakeFirst();
  const sharing = record?.sharing_id
    ? await db.selectFrom('terminal_sessionsharing').selectAll().where('id', '=', record.sharing_id).executeTakeFirst()
    : undefined;
  if (!record || !sharing) return sm(req.lang, 'join_not_found');
  const row = await db
    .selectFrom('terminal_session')
    .selectAll()
    .where('id', '=', sharing.session_id)
    .executeTakeFirst();
  const refusal = joinRefusal(sharing, row, { userId: req.user!.id, member: true });
  if (refusal || !row) return sm(req.lang, refusal ?? 'session_ended');
  return {
    row,
    recordId: record.id,
    permission: sharing.action_permission === 'writable' ? 'writable' : 'readonly',
    canTerminate: false,
    sharing,
    display: record.joiner_display,
  };
}

/** Why a sharing watched through no longer lets its joiner stay, if it does not. */
async function sharingGone(app: FastifyInstance, sharingId: string, lang: Language): Promise<string | undefined> {
  const s = await app.deps.database.db
    .selectFrom('terminal_sessionsharing')
    .selectAll()
    .where('id', '=', sharingId)
    .executeTakeFirst();
  if (!s) return sm(lang, 'inactive');
  if (!toBool(s.is_active)) return sm(lang, s.failed_attempts >= MAX_FAILURES ? 'locked_out' : 'inactive');
  if (Date.now() >= expiresAt(s)) return sm(lang, 'expired');
  return undefined;
}

async function watch(app: FastifyInstance, socket: WebSocket, req: FastifyRequest): Promise<void> {
  if (!req.user) return void socket.close(4001, 'not authenticated');
  const q = req.query as Record<string, unknown>;
  const joinId = typeof q.join_record_id === 'string' ? q.join_record_id.slice(0, 64) : '';
  const id = typeof q.session_id === 'string' ? q.session_id.slice(0, 64) : '';
  const access = joinId ? await sharingAccess(app, req, joinId) : await monitorAccess(app, req, id);
  if (typeof access === 'string') return refuse(socket, access);
  const { row, recordId, permission, sharing } = access;
  const db = app.deps.database.db;
  const registry = gatewayOf(app).registry;

  let ended = false;
  const stop = await registry.watch(row.id, (data) => send(socket, { type: 'TERMINAL_DATA', data }));
  const share = (event: 'joined' | 'left') =>
    sharing ? registry.share(row.id, { event, user: access.display, permission }).catch(() => undefined) : undefined;
  const leave = async (reason?: string, why?: string) => {
    if (ended) return;
    ended = true;
    clearInterval(poll);
    await stop();
    await share('left');
    const left = new Date().toISOString();
    await db
      .updateTable('terminal_sessionjoinrecord')
      .set({ is_finished: true, date_left: left, date_updated: left })
      .where('id', '=', recordId)
      .execute();
    if (reason) {
      send(socket, { type: 'TERMINAL_ERROR', err: why ?? tm(req.lang, 'monitor_ended') });
      send(socket, { type: 'CLOSE', reason });
      socket.close(1000);
    }
  };
  send(socket, {
    type: 'CONNECT',
    id: row.id,
    data: {
      session: {
        id: row.id,
        user: row.user,
        asset: row.asset,
        account: row.account,
        org_id: row.org_id,
        is_locked: Boolean(row.is_locked),
        // `vnc`/`rdp`: TERMINAL_DATA carries RFB in base64 (graphical/graphicalSession.ts setWatched).
        protocol: row.protocol,
      },
      can_terminate: access.canTerminate,
      permission,
    },
  });
  await share('joined');
  // A writable sharing's joiner types into the session (as its owner would: rules and lock apply).
  if (permission === 'writable')
    socket.on('message', (raw) => {
      if (ended) return;
      let msg: { type?: unknown; data?: unknown };
      try {
        msg = JSON.parse(String(raw)) as typeof msg;
      } catch {
        return;
      }
      if (msg.type === 'TERMINAL_DATA' && typeof msg.data === 'string' && msg.data.length <= MAX_INPUT)
        void registry.input(row.id, msg.data).catch(() => undefined);
    });
  const poll = setInterval(() => {
    void (async () => {
      const r = await db
        .selectFrom('terminal_session')
        .select(['is_finished', 'is_locked'])
        .where('id', '=', row.id)
        .executeTakeFirst();
      if (!r || r.is_finished) return leave('ended');
      const gone = sharing ? await sharingGone(app, sharing.id, req.lang) : undefined;
      if (gone) return leave('ended', gone);
      send(socket, { type: 'STATUS', data: { is_locked: Boolean(r.is_locked) } });
    })().catch(() => undefined);
  }, END_POLL_MS);
  poll.unref();
  socket.on('close', () => void leave().catch(() => undefined));
  if (socket.readyState !== socket.OPEN) await leave();
}

export function registerMonitorSocket(app: FastifyInstance): void {
  const open = new Set<WebSocket>();
  app.addHook('preClose', async () => {
    for (const s of open) s.terminate();
    open.clear();
  });
  app.get(MONITOR_SOCKET_PATH, { websocket: true, config: { public: true } }, (socket, req) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    watch(app, socket, req).catch((e: Error) => {
      app.log.warn({ err: e.message }, 'monitor socket failed');
      refuse(socket, tm(req.lang, 'monitor_not_running'));
    });
  });
}
