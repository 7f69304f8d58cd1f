/**
 * The web terminal socket's protocol as the page speaks it (the server side is
 * apps/server/src/modules/terminal/webTerminalSocket.ts): JSON text frames both ways.
 */
export const TERMINAL_SOCKET_PATH = '/koko/ws/terminal/';

export type CloseReason = 'closed' | 'killed' | 'idle' | 'max_time' | 'error';
const CLOSE_REASONS: readonly CloseReason[] = ['closed', 'killed', 'idle', 'max_time', 'error'];

export interface ConnectInfo {
  sessionId: string;
  asset: { id: string; name: string };
  account: { id: string; name: string; username: string };
  actions: string[];
  clipboard: { copy: boolean; paste: boolean };
}

/** Someone joined or left the session through one of its owner's sharings. */
export interface ShareNotice {
  event: 'joined' | 'left';
  user: string;
  permission: 'readonly' | 'writable';
}

export type ServerMessage =
  | { type: 'CONNECT'; info: ConnectInfo }
  | { type: 'SHARE'; share: ShareNotice }
  | { type: 'DATA'; data: string }
  | { type: 'ERROR'; err: string }
  | { type: 'CLOSE'; reason: CloseReason };

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** One frame from the server, or undefined for anything the page does not know. */
export function parseServerMessage(raw: string): ServerMessage | undefined {
  let m: Record<string, unknown>;
  try {
    m = obj(JSON.parse(raw));
  } catch {
    return undefined;
  }
  switch (m.type) {
    case 'CONNECT': {
      const d = obj(m.data);
      const asset = obj(d.asset);
      const account = obj(d.account);
      const clip = obj(d.clipboard);
      return {
        type: 'CONNECT',
        info: {
          sessionId: str(m.id),
          asset: { id: str(asset.id), name: str(asset.name) },
          account: { id: str(account.id), name: str(account.name), username: str(account.username) },
          actions: Array.isArray(d.actions) ? d.actions.filter((a): a is string => typeof a === 'string') : [],
          clipboard: { copy: clip.copy === true, paste: clip.paste === true },
        },
      };
    }
    case 'TERMINAL_DATA':
      return typeof m.data === 'string' ? { type: 'DATA', data: m.data } : undefined;
    case 'SHARE': {
      const d = obj(m.data);
      if (d.event !== 'joined' && d.event !== 'left') return undefined;
      return {
        type: 'SHARE',
        share: { event: d.event, user: str(d.user), permission: d.permission === 'writable' ? 'writable' : 'readonly' },
      };
    }
    case 'TERMINAL_ERROR':
      return { type: 'ERROR', err: str(m.err) };
    case 'CLOSE': {
      const reason = CLOSE_REASONS.find((r) => r === m.reason) ?? 'closed';
      return { type: 'CLOSE', reason };
    }
    default:
      return undefined;
  }
}

export const dataFrame = (data: string) => JSON.stringify({ type: 'TERMINAL_DATA', data });
export const resizeFrame = (cols: number, rows: number) =>
  JSON.stringify({ type: 'TERMINAL_RESIZE', data: { cols, rows } });
export const closeFrame = () => JSON.stringify({ type: 'CLOSE' });

/** The socket's address on the page's own host (ws: or wss: as the page). */
export function socketUrl(
  loc: { protocol: string; host: string },
  token: string,
  cols: number,
  rows: number,
  container?: { namespace: string; pod: string; container: string },
): string {
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  const q = new URLSearchParams({ token, cols: String(cols), rows: String(rows), ...container });
  return `${scheme}//${loc.host}${TERMINAL_SOCKET_PATH}?${q.toString()}`;
}

/** The graphical sessions' socket (apps/server/src/modules/terminal/graphical/graphicalSocket.ts). */
export const GRAPHICAL_SOCKET_PATH = '/koko/ws/graphical/';

/** Protocols a tab shows with noVNC instead of a terminal. */
export const isGraphical = (protocol: string | undefined) => protocol === 'vnc' || protocol === 'rdp';

/** The graphical socket's address on the page's own host, with the screen size RDP's desktop takes. */
export function graphicalSocketUrl(
  loc: { protocol: string; host: string },
  token: string,
  width: number,
  height: number,
) {
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  const q = new URLSearchParams({ token, width: String(Math.round(width)), height: String(Math.round(height)) });
  return `${scheme}//${loc.host}${GRAPHICAL_SOCKET_PATH}?${q.toString()}`;
}

/** The catalogue key of a session's end, shown in the terminal. */
export const closeReasonKey = (reason: CloseReason) => `luna.close.${reason}`;

/** Refusal codes of the connection-token API the page explains itself; others show the server's text. */
const REFUSALS = ['perm_account_invalid', 'perm_expired', 'acl_reject', 'acl_review', 'anon_not_allowed'];

/** The catalogue key of a refusal, or undefined (then the server's own message, already in the user's language). */
export function refusalKey(data: unknown): string | undefined {
  const code = str(obj(data).code);
  return REFUSALS.includes(code) ? `luna.refusal.${code}` : undefined;
}

/** The server's message of a refused call: `detail`, else the first field message. */
export function serverMessage(data: unknown): string {
  const d = obj(data);
  if (typeof d.detail === 'string') return d.detail;
  for (const [k, v] of Object.entries(d)) {
    if (k === 'code') continue;
    if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
    if (typeof v === 'string') return v;
  }
  return '';
}
