import { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerTokenSocket } from '../tokens/tokenSocket.ts';
import type { RawData, WebSocket } from 'ws';
import { ApiError } from '../../../http/errors.ts';
import { ACTION_BITS } from '../../perms/actions.ts';
import { gatewayOf } from '../gatewayInstance.ts';
import { GatewayError, tm } from '../gateway/gatewayError.ts';
import { recordReviewedSession } from '../tokens/loginAssetReview.ts';
import { spendToken } from '../tokens/tokenSpend.ts';
import { downstreamHandshake } from './rfbHandshake.ts';
import type { GraphicalSession } from './graphicalSession.ts';

/**
 * The graphical sessions' WebSocket, `/koko/ws/graphical/?token=<connection token>&width=&height=`
 * (docs/graphical.md). The token is spent as the web terminal's (`../webTerminalSocket.ts`: a page
 * signed in may only spend its own user's), it must be of the `vnc` or `rdp` protocol, and the
 * session opens as the token's user. Text frames are JSON control messages, binary frames RFB:
 *   server -> page  {type:'CONNECT', id, data:{asset, account, protocol, actions, clipboard}}, then
 *                   RFB (the page's noVNC is the RFB client; security None), {type:'TERMINAL_ERROR', err},
 *                   {type:'CLOSE', reason: closed|killed|idle|max_time|error}
 *   page -> server  RFB, {type:'CLOSE'}
 */
export const GRAPHICAL_SOCKET_PATH = '/koko/ws/graphical/';

const size = (v: unknown, fallback: number) => {
  const n = Number(v);
  return Number.isInteger(n) && n >= 200 && n <= 8192 ? n : fallback;
};

function send(socket: WebSocket, msg: Record<string, unknown>): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg));
}

function fail(socket: WebSocket, err: string): void {
  send(socket, { type: 'TERMINAL_ERROR', err });
  send(socket, { type: 'CLOSE', reason: 'error' });
  socket.close(4000, 'refused');
}

const asBuffer = (raw: RawData): Buffer =>
  Buffer.isBuffer(raw) ? raw : Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw);

async function connect(app: FastifyInstance, socket: WebSocket, req: FastifyRequest): Promise<void> {
  const q = req.query as Record<string, unknown>;
  const id = typeof q.token === 'string' ? q.token : '';
  // Frames before the RFB handshake (none are expected) and after it go to `toSession`.
  let toSession: ((b: Buffer) => void) | undefined;
  let session: GraphicalSession | undefined;
  let closed = false;
  socket.on('message', (raw, isBinary) => {
    if (isBinary) return toSession?.(asBuffer(raw));
    try {
      if ((JSON.parse(String(raw)) as { type?: unknown }).type === 'CLOSE') socket.close(1000);
    } catch {
      // not a control message
    }
  });
  socket.on('close', () => {
    closed = true;
    void session?.close('closed');
  });
  let spent;
  try {
    spent = id ? await spendToken(req, id, req.user?.id) : undefined;
  } catch (e) {
    if (e instanceof ApiError) return fail(socket, String((e.body as { detail?: string }).detail ?? ''));
    throw e;
  }
  if (!spent) return fail(socket, tm(req.lang, 'token_not_found'));
  const protocol = spent.token.protocol;
  if (protocol !== 'vnc' && protocol !== 'rdp')
    return fail(socket, tm(req.lang, 'token_protocol_not_supported', { asset: spent.asset.name, protocol }));
  if (spent.account.alias === '@ANON') return fail(socket, tm(req.lang, 'token_anon_graphical'));
  if (!spent.account.real && !spent.typed) return fail(socket, tm(req.lang, 'token_account_unsupported'));
  const actions = spent.account.actions;
  const gw = gatewayOf(app);
  try {
    session = await gw.openGraphical({
      user: spent.user,
      protocol,
      assetId: spent.asset.id,
      accountId: spent.account.real ? spent.account.id : spent.account.alias,
      ...(spent.typed ? { typed: spent.typed } : {}),
      lang: req.lang,
      loginFrom: 'WT',
      remoteAddr: req.ip,
      clipboard: { copy: Boolean(actions & ACTION_BITS.copy), paste: Boolean(actions & ACTION_BITS.paste) },
      drive: { upload: Boolean(actions & ACTION_BITS.upload), download: Boolean(actions & ACTION_BITS.download) },
      width: size(q.width, 1024),
      height: size(q.height, 768),
    });
  } catch (e) {
    if (e instanceof GatewayError) return fail(socket, e.message);
    app.log.warn({ err: (e as Error).message }, 'graphical session: it did not open');
    return fail(socket, tm(req.lang, 'terminal_start_failed'));
  }
  if (!session) return fail(socket, tm(req.lang, 'graphical_limit', { limit: gw.graphicalLimit }));
  const s = session;
  if (closed) return void s.close('closed');
  await recordReviewedSession(spent.reviewTicketId, s.id).catch((e: Error) =>
    app.log.warn({ err: e.message }, 'graphical session: the ticket did not record its session'),
  );
  s.once('end', (reason: string) => {
    send(socket, { type: 'CLOSE', reason });
    socket.close(1000);
  });
  send(socket, {
    type: 'CONNECT',
    id: s.id,
    data: {
      protocol,
      asset: { id: spent.asset.id, name: spent.asset.name },
      account: spent.account.real
        ? { id: spent.account.id, name: spent.account.name, username: spent.account.username }
        : { id: spent.account.alias, name: spent.account.name, username: spent.typed?.username ?? '' },
      actions: Object.entries(ACTION_BITS)
        .filter(([, bit]) => actions & bit)
        .map(([name]) => name),
      clipboard: { copy: Boolean(actions & ACTION_BITS.copy), paste: Boolean(actions & ACTION_BITS.paste) },
    },
  });
  // The browser's side of the RFB handshake, over the binary frames.
  const browser = new Duplex({
    read() {},
    write(chunk: Buffer, _enc, cb) {
      if (socket.readyState === socket.OPEN) socket.send(chunk, { binary: true });
      cb();
    },
  });
  toSession = (b) => browser.push(b);
  let rest: Buffer;
  try {
    rest = await downstreamHandshake(browser);
  } catch {
    return void s.close('error');
  }
  toSession = (b) => s.input(b);
  s.attach((b) => {
    if (b.length && socket.readyState === socket.OPEN) socket.send(b, { binary: true });
    return socket.bufferedAmount;
  }, rest);
}

export function registerGraphicalSocket(app: FastifyInstance): void {
  registerTokenSocket(app, {
    path: GRAPHICAL_SOCKET_PATH,
    name: 'graphical',
    connect,
    failed: (socket, req) => fail(socket, tm(req.lang, 'terminal_start_failed')),
  });
}
