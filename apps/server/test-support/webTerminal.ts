import WebSocket from 'ws';
import { MONITOR_SOCKET_PATH } from '../src/modules/terminal/monitorSocket.ts';
import { WEB_TERMINAL_SOCKET_PATH } from '../src/modules/terminal/webTerminalSocket.ts';

/** Test helper: the web terminal socket as a page uses it. */
export interface Msg {
  type: string;
  data?: unknown;
  err?: string;
  id?: string;
  reason?: string;
}

/** A socket of the gateway's JSON messages at `url`: collects the messages and the terminal text. */
export function socketClient(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, { headers });
  const msgs: Msg[] = [];
  let text = '';
  ws.on('message', (raw) => {
    const m = JSON.parse(String(raw)) as Msg;
    msgs.push(m);
    if (m.type === 'TERMINAL_DATA') text += String(m.data);
  });
  const closed = new Promise<void>((r) => ws.once('close', () => r()));
  const waitFor = async (test: () => boolean, what: string, ms = 10_000) => {
    for (let waited = 0; !test(); waited += 20) {
      if (waited > ms) throw new Error(`no ${what}: ${JSON.stringify(msgs).slice(0, 2000)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { ws, msgs, text: () => text, closed, waitFor };
}

/** A page's web terminal socket on the app at `base`, typing key by key. */
export function terminalClient(base: string, token: string, headers: Record<string, string> = {}) {
  const c = socketClient(`${base}${WEB_TERMINAL_SOCKET_PATH}?token=${token}&cols=100&rows=30`, headers);
  const type = async (s: string) => {
    for (const ch of s) {
      c.ws.send(JSON.stringify({ type: 'TERMINAL_DATA', data: ch }));
      await new Promise((r) => setTimeout(r, 15));
    }
  };
  return { ...c, type };
}

/** A watcher's monitor socket (read-only) on the app at `base`, signed in by `cookie`. */
export function monitorClient(base: string, cookie: string, sessionId: string, ticketId?: string) {
  const q = `session_id=${sessionId}${ticketId ? `&ticket_id=${ticketId}` : ''}`;
  return socketClient(`${base}${MONITOR_SOCKET_PATH}?${q}`, { cookie });
}
