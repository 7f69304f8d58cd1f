import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { hasPermission } from '@gatehouse/contract';
import { effectivePerms } from '../../http/rbac.ts';
import { gatewayOf } from './gatewayInstance.ts';
import { tm } from './gateway/gatewayError.ts';
import { mayReachThroughTicket } from './ticketSessionAccess.ts';

/**
 * Watching a running session, read-only: `/koko/ws/monitor/?session_id=<id>` (signed in by the
 * session cookie, behind http/websocketGuard.ts). The caller must hold `terminal.monitor_session`
 * and `terminal.view_session` in the session's own org (whatever org the console is in: the page
 * is opened from a link). The socket follows `registry.watch` (the bus, so the session may run on
 * any instance): first the screen as it stands, then the output. Nothing the page sends reaches
 * the session. Each watch writes a join record (`terminal_sessionjoinrecord`, readonly), closed
 * when the watcher leaves or the session ends. With `&ticket_id=<id>` the current reviewer of the
 * login-asset or command ticket linked to the session watches without those permissions
 * (`ticketSessionAccess.ts`); its pause and end go through the for-ticket task routes.
 *   server -> page  {type:'CONNECT', id, data:{session:{id,user,asset,account,org_id,is_locked}, can_terminate}}
 *                   {type:'TERMINAL_DATA', data}  {type:'TERMINAL_ERROR', err}  {type:'CLOSE', reason}
 * The end is noticed by reading the row every END_POLL_MS (the session may be on another instance).
 */
export const MONITOR_SOCKET_PATH = '/koko/ws/monitor/';
const END_POLL_MS = 1000;

function send(socket: WebSocket, msg: Record<string, unknown>): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg));
}

function refuse(socket: WebSocket, err: string): void {
  send(socket, { type: 'TERMINAL_ERROR', err });
  send(socket, { type: 'CLOSE', reason: 'error' });
  socket.close(4000, 'refused');
}

async function watch(app: FastifyInstance, socket: WebSocket, req: FastifyRequest): Promise<void> {
  const user = req.user;
  if (!user) return void socket.close(4001, 'not authenticated');
  const q = req.query as Record<string, unknown>;
  const id = typeof q.session_id === 'string' ? q.session_id.slice(0, 64) : '';
  const db = app.deps.database.db;
  const row = id
    ? await db.selectFrom('terminal_session').selectAll().where('id', '=', id).executeTakeFirst()
    : undefined;
  const ticketId = typeof q.ticket_id === 'string' ? q.ticket_id.slice(0, 64) : '';
  const eff = row ? await effectivePerms(db, user.id, row.org_id) : undefined;
  const allowed = (p: string[]) => Boolean(eff && (eff.isSuperuser || hasPermission(eff.perms, p)));
  const reviewer = Boolean(row && (await mayReachThroughTicket({ userId: user.id, sessionId: row.id, ticketId })));
  // A session the caller may not see looks like one that does not run.
  if (!row || !(reviewer || allowed(['terminal.view_session'])))
    return refuse(socket, tm(req.lang, 'monitor_not_running'));
  if (!reviewer && !allowed(['terminal.monitor_session'])) return refuse(socket, tm(req.lang, 'monitor_denied'));
  // The contract's can_join: running, a normal session, not from an RDP client.
  if (row.is_finished || row.type !== 'normal' || row.login_from === 'RT')
    return refuse(socket, tm(req.lang, 'monitor_not_running'));

  const now = new Date().toISOString();
  const recordId = randomUUID();
  await db
    .insertInto('terminal_sessionjoinrecord')
    .values({
      id: recordId,
      session_id: row.id,
      joiner_id: user.id,
      joiner_display: `${user.name}(${user.username})`,
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

  let ended = false;
  const stop = await gatewayOf(app).registry.watch(row.id, (data) => send(socket, { type: 'TERMINAL_DATA', data }));
  const leave = async (reason?: string) => {
    if (ended) return;
    ended = true;
    clearInterval(poll);
    await stop();
    const left = new Date().toISOString();
    await db
      .updateTable('terminal_sessionjoinrecord')
      .set({ is_finished: true, date_left: left, date_updated: left })
      .where('id', '=', recordId)
      .execute();
    if (reason) {
      send(socket, { type: 'TERMINAL_ERROR', err: tm(req.lang, 'monitor_ended') });
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
      },
      // A reviewer pauses and ends it through the ticket's task routes (tickets/sessionControlRoutes.ts).
      can_terminate: reviewer || allowed(['terminal.terminate_session']),
    },
  });
  const poll = setInterval(() => {
    void db
      .selectFrom('terminal_session')
      .select(['is_finished', 'is_locked'])
      .where('id', '=', row.id)
      .executeTakeFirst()
      .then((r) => {
        if (!r || r.is_finished) return leave('ended');
        send(socket, { type: 'STATUS', data: { is_locked: Boolean(r.is_locked) } });
      })
      .catch(() => undefined);
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
