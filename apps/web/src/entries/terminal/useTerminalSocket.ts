import { useEffect, useRef, useState } from 'react';
import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import { SearchAddon } from '@xterm/addon-search';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { useTranslation } from 'react-i18next';
import {
  closeFrame,
  closeReasonKey,
  dataFrame,
  parseServerMessage,
  resizeFrame,
  socketUrl,
  type CloseReason,
  type ConnectInfo,
  type ShareNotice,
} from './socketMessages.ts';
import { outgoingKeys, xtermOptions, type TerminalPrefs } from './terminalOptions.ts';

export type SessionState =
  | { phase: 'connecting' }
  | { phase: 'connected'; info: ConnectInfo }
  | { phase: 'ended'; reason: CloseReason; info?: ConnectInfo; error?: string };

export interface TerminalHandle {
  term?: Terminal;
  search?: SearchAddon;
  send(data: string): void;
}

/** Grey/red line written into the terminal by the page itself (not from the asset). */
const pageLine = (text: string, error = false) => `\r\n\x1b[${error ? '31' : '90'}m${text}\x1b[0m\r\n`;

/**
 * One xterm.js terminal (fit, search and web-links add-ons) in `box`, joined to the socket of one
 * connection token: keys go out (Backspace as Ctrl+H when preferred), output comes in, the box's
 * size follows as TERMINAL_RESIZE, and the end's reason is written in the user's language.
 * `onShare` hears who joins or leaves through the session's sharings.
 */
export function useTerminalSocket(
  box: React.RefObject<HTMLDivElement | null>,
  token: string,
  prefs: TerminalPrefs,
  container?: { namespace: string; pod: string; container: string },
  onShare?: (notice: ShareNotice) => void,
): { state: SessionState; handle: React.RefObject<TerminalHandle> } {
  const { t } = useTranslation();
  const [state, setState] = useState<SessionState>({ phase: 'connecting' });
  const handle = useRef<TerminalHandle>({ send: () => undefined });
  const tr = useRef(t);
  tr.current = t;
  const shareRef = useRef(onShare);
  shareRef.current = onShare;
  useEffect(() => {
    const term = new Terminal(xtermOptions(prefs));
    const fit = new FitAddon();
    const search = new SearchAddon();
    term.loadAddon(fit);
    term.loadAddon(search);
    term.loadAddon(new WebLinksAddon());
    term.open(box.current!);
    fit.fit();
    const ws = new WebSocket(socketUrl(window.location, token, term.cols, term.rows, container));
    let info: ConnectInfo | undefined;
    let error: string | undefined;
    let ended = false;
    const send = (frame: string) => ws.readyState === WebSocket.OPEN && ws.send(frame);
    const end = (reason: CloseReason) => {
      if (ended) return;
      ended = true;
      term.write(pageLine(tr.current(closeReasonKey(reason)), reason === 'error'));
      setState({ phase: 'ended', reason, ...(info ? { info } : {}), ...(error ? { error } : {}) });
    };
    handle.current = { term, search, send: (data) => send(dataFrame(data)) };
    ws.onmessage = (ev) => {
      const m = parseServerMessage(String(ev.data));
      if (!m) return;
      if (m.type === 'CONNECT') {
        info = m.info;
        setState({ phase: 'connected', info });
        term.focus();
      } else if (m.type === 'DATA') term.write(m.data);
      else if (m.type === 'SHARE') shareRef.current?.(m.share);
      else if (m.type === 'ERROR') {
        error = m.err;
        term.write(pageLine(m.err, true));
      } else end(m.reason);
    };
    ws.onclose = () => end(info ? 'closed' : 'error');
    const keys = term.onData((d) => send(dataFrame(outgoingKeys(d, prefs))));
    const resized = term.onResize(({ cols, rows }) => send(resizeFrame(cols, rows)));
    const observer = new ResizeObserver(() => {
      if (box.current?.offsetParent) fit.fit();
    });
    observer.observe(box.current!);
    return () => {
      observer.disconnect();
      keys.dispose();
      resized.dispose();
      ws.onclose = null;
      if (ws.readyState === WebSocket.OPEN) ws.send(closeFrame());
      ws.close();
      term.dispose();
    };
    // The terminal lives as long as its token; preferences apply to the next one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);
  return { state, handle };
}
