import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerTokenSocket } from './tokens/tokenSocket.ts';
import type { WebSocket } from 'ws';
import { ApiError } from '../../http/errors.ts';
import { ACTION_BITS } from '../perms/actions.ts';
import { openDbShell } from './database/dbShell.ts';
import { dialectOf } from './database/dbTarget.ts';
import { gatewayOf } from './gatewayInstance.ts';
import { GatewayError, tm } from './gateway/gatewayError.ts';
import { joinJson, outputJson } from './gateway/outputJson.ts';
import type { GatewaySession } from './gateway/gatewaySession.ts';
import type { ShareEvent } from './gateway/control.ts';
import type { K8sContainer } from './k8s/k8sExec.ts';
import { recordReviewedSession } from './tokens/loginAssetReview.ts';
import { spendToken } from './tokens/tokenSpend.ts';

/**
 * The web terminal's WebSocket, `/koko/ws/terminal/?token=<connection token id>&cols=&rows=`
 * (`&namespace=&pod=&container=` with a k8s token: a shell in that container)
 * (behind the websocket guard of http/websocketGuard.ts). It spends the token, opens a gateway
 * session as the token's user (login_from WT) and relays JSON messages
 * (docs/gateway.md, "The web terminal's WebSocket"):
 *   page -> server  {type:'TERMINAL_DATA', data}  {type:'TERMINAL_RESIZE', data:{cols, rows}}  {type:'CLOSE'}
 *   server -> page  {type:'CONNECT', id, data:{asset, account, actions, clipboard:{copy, paste}}}
 *                   {type:'TERMINAL_DATA', data}  {type:'TERMINAL_ERROR', err}  {type:'CLOSE', reason}
 */
export const WEB_TERMINAL_SOCKET_PATH = '/koko/ws/terminal/';

const size = (v: unknown, fallback: number, max: number) => {
  const n = Number(v);
  return Number.isInteger(n) && n > 0 && n <= max ? n : fallback;
};

function send(socket: WebSocket, msg: Record<string, unknown>): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg));
}

function fail(socket: WebSocket, err: string): void {
  send(socket, { type: 'TERMINAL_ERROR', err });
  send(socket, { type: 'CLOSE', reason: 'error' });
  socket.close(4000, 'refused');
}

/** The page is this many characters behind (sent, not yet written to the socket): the asset's output pauses. */
const BEHIND_HIGH = 1024 * 1024;
const BEHIND_LOW = 256 * 1024;
/** A frame at least this long: output is streaming, the next frame waits STREAM_WAIT_MS to gather more. */
const STREAMING = 16 * 1024;
const STREAM_WAIT_MS = 4;
const FRAME_MAX = 256 * 1024;

/**
 * The session's output to the page in as few TERMINAL_DATA frames as keeps it live (each piece
 * JSON-encoded once, shared with the recording: `gateway/outputJson.ts`): a piece of
 * output goes at the end of the event loop's turn (with whatever else came in that turn), but while
 * output streams (a `cat` of a big file comes in thousands of small pieces, one frame and one
 * socket write each was the gateway's biggest cost) pieces gather for STREAM_WAIT_MS, up to
 * FRAME_MAX characters a frame. The session pauses (and with it the asset's channel) while the page
 * is more than BEHIND_HIGH characters behind. Answers a function that sends what is waiting now.
 */
function relayOutput(socket: WebSocket, session: GatewaySession): () => void {
  const stream = session.stream;
  let waiting: string[] = [];
  let waitingChars = 0;
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  let streaming = false;
  let behind = 0;
  const flush = () => {
    clearTimeout(timer);
    clearImmediate(immediate);
    timer = immediate = undefined;
    if (!waiting.length) return;
    const frame = `{"type":"TERMINAL_DATA","data":${joinJson(waiting)}}`;
    const chars = waitingChars;
    waiting = [];
    waitingChars = 0;
    streaming = chars >= STREAMING;
    if (socket.readyState !== socket.OPEN) return;
    behind += chars;
    socket.send(frame, () => {
      behind -= chars;
      if (behind <= BEHIND_LOW && stream.isPaused()) stream.resume();
    });
    if (behind > BEHIND_HIGH) stream.pause();
  };
  stream.setEncoding('utf8');
  stream.on('data', (data: string) => {
    waiting.push(outputJson(data));
    waitingChars += data.length;
    if (waitingChars >= FRAME_MAX) flush();
    else if (!timer && !immediate) {
      if (streaming) timer = setTimeout(flush, STREAM_WAIT_MS);
      else immediate = setImmediate(flush);
    }
  });
  return flush;
}

/** The container a k8s token's session opens: `namespace`, `pod`, `container` of the query (names as Kubernetes'). */
function containerOf(q: Record<string, unknown>): K8sContainer | undefined {
  const [namespace, pod, container] = [q.namespace, q.pod, q.container].map((v) => (typeof v === 'string' ? v : ''));
  const name = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;
  return name.test(namespace!) && name.test(pod!) && name.test(container!)
    ? { namespace: namespace!, pod: pod!, container: container! }
    : undefined;
}

async function connect(app: FastifyInstance, socket: WebSocket, req: FastifyRequest): Promise<void> {
  const q = req.query as Record<string, unknown>;
  const id = typeof q.token === 'string' ? q.token : '';
  const k8s = containerOf(q);
  // Checked before the token is spent: a page asking for a container must name it properly.
  if (!k8s && (q.namespace || q.pod || q.container)) return fail(socket, tm(req.lang, 'k8s_container_required'));
  let spent;
  try {
    spent = id ? await spendToken(req, id, req.user?.id) : undefined;
  } catch (e) {
    if (e instanceof ApiError) return fail(socket, String((e.body as { detail?: string }).detail ?? ''));
    throw e;
  }
  if (!spent) return fail(socket, tm(req.lang, 'token_not_found'));
  // A graphical token opens only a desktop (graphical/graphicalSocket.ts), never a shell with the same account.
  if (spent.token.protocol === 'vnc' || spent.token.protocol === 'rdp')
    return fail(
      socket,
      tm(req.lang, 'token_protocol_not_supported', { asset: spent.asset.name, protocol: spent.token.protocol }),
    );
  // @ANON logs in as nobody: SSH has no anonymous login, so the gateway cannot open it.
  if (spent.account.alias === '@ANON') return fail(socket, tm(req.lang, 'token_anon_ssh'));
  if (!spent.account.real && !spent.typed) return fail(socket, tm(req.lang, 'token_account_unsupported'));
  // A cluster is reached with the stored account's token, in the container the page chose.
  const isK8s = spent.token.protocol === 'k8s';
  if (isK8s && !spent.account.real) return fail(socket, tm(req.lang, 'token_account_unsupported'));
  if (isK8s !== Boolean(k8s)) return fail(socket, tm(req.lang, 'k8s_container_required'));
  // A database asset: its own client under a pty behind the database proxy (database/dbShell.ts).
  const dialect = dialectOf(spent.token.protocol);
  const pending: string[] = [];
  let session: GatewaySession | undefined;
  let closed = false;
  socket.on('message', (raw) => {
    let msg: { type?: unknown; data?: unknown };
    try {
      msg = JSON.parse(String(raw)) as typeof msg;
    } catch {
      return;
    }
    if (msg.type === 'TERMINAL_DATA' && typeof msg.data === 'string') {
      if (session) session.stream.write(msg.data);
      else pending.push(msg.data);
    } else if (msg.type === 'TERMINAL_RESIZE' && msg.data && typeof msg.data === 'object') {
      const d = msg.data as { cols?: unknown; rows?: unknown };
      session?.resize(size(d.cols, 80, 1000), size(d.rows, 24, 1000));
    } else if (msg.type === 'CLOSE') socket.close(1000);
  });
  socket.on('close', () => {
    closed = true;
    void session?.close('closed');
  });
  try {
    session = await gatewayOf(app).openSession({
      user: spent.user,
      assetId: spent.asset.id,
      accountId: spent.account.real ? spent.account.id : spent.account.alias,
      ...(spent.typed ? { typed: spent.typed } : {}),
      ...(isK8s ? { k8s } : {}),
      ...(dialect
        ? {
            plug: {
              protocol: spent.token.protocol,
              open: (sessionId: string, sz: { cols: number; rows: number }) =>
                openDbShell(app, {
                  sessionId,
                  user: spent.user,
                  assetId: spent.asset.id,
                  accountId: spent.account.real ? spent.account.id : spent.account.alias,
                  ...(spent.typed ? { typed: spent.typed } : {}),
                  lang: req.lang,
                  remoteAddr: req.ip,
                  dialect,
                  size: sz,
                }),
            },
          }
        : {}),
      lang: req.lang,
      loginFrom: 'WT',
      remoteAddr: req.ip,
      cols: size(q.cols, 80, 1000),
      rows: size(q.rows, 24, 1000),
    });
  } catch (e) {
    if (e instanceof GatewayError) return fail(socket, e.message);
    app.log.warn({ err: (e as Error).message }, 'web terminal: the session did not open');
    return fail(socket, tm(req.lang, 'terminal_start_failed'));
  }
  if (closed) return void session.close('closed');
  // The ticket that let this connection through shows its session; a failure does not stop it.
  await recordReviewedSession(spent.reviewTicketId, session.id).catch((e: Error) =>
    app.log.warn({ err: e.message }, 'web terminal: the ticket did not record its session'),
  );
  const actions = spent.account.actions;
  send(socket, {
    type: 'CONNECT',
    id: session.id,
    data: {
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
  const flush = relayOutput(socket, session);
  // Joiners of the owner's sharings (sharing/): the page tells the owner who came and went.
  session.on('share', (e: ShareEvent) => send(socket, { type: 'SHARE', data: e }));
  session.once('end', (reason: string) => {
    const finish = () => {
      flush();
      send(socket, { type: 'CLOSE', reason });
      socket.close(1000);
    };
    // Output still held by a pause goes out before the CLOSE.
    if (session.stream.readableEnded) return finish();
    session.stream.once('end', finish);
    session.stream.resume();
  });
  for (const data of pending.splice(0)) session.stream.write(data);
}

export function registerWebTerminalSocket(app: FastifyInstance): void {
  registerTokenSocket(app, {
    path: WEB_TERMINAL_SOCKET_PATH,
    name: 'web terminal',
    connect,
    failed: (socket, req) => fail(socket, tm(req.lang, 'terminal_start_failed')),
  });
}
