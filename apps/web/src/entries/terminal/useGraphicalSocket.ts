import { useEffect, useRef, useState } from 'react';
import RFB from '@novnc/novnc';
import { RfbChannel } from '../../lib/rfb/rfbChannel.ts';
import {
  closeFrame,
  graphicalSocketUrl,
  parseServerMessage,
  type CloseReason,
  type ConnectInfo,
} from './socketMessages.ts';
import type { SessionState } from './useTerminalSocket.ts';

export interface GraphicalHandle {
  rfb?: RFB;
}

/**
 * One graphical session in `box`: the page's socket to the gateway (JSON control in text frames,
 * RFB in binary ones), noVNC drawing the desktop from the bytes handed to it through an
 * `RfbChannel`. The desktop is scaled into the box and asks the server to follow its size (VNC
 * servers that allow it; RDP desktops are made at the box's size). The asset's clipboard comes as
 * noVNC's `clipboard` event (only when the permission's copy allows: the gateway drops it otherwise).
 */
export function useGraphicalSocket(
  box: React.RefObject<HTMLDivElement | null>,
  token: string,
  onClipboard: (text: string) => void,
): { state: SessionState; handle: React.RefObject<GraphicalHandle> } {
  const [state, setState] = useState<SessionState>({ phase: 'connecting' });
  const handle = useRef<GraphicalHandle>({});
  const clipRef = useRef(onClipboard);
  clipRef.current = onClipboard;
  useEffect(() => {
    const el = box.current!;
    const ws = new WebSocket(
      graphicalSocketUrl(window.location, token, el.clientWidth || 1024, el.clientHeight || 768),
    );
    ws.binaryType = 'arraybuffer';
    const channel = new RfbChannel((data) => ws.readyState === WebSocket.OPEN && ws.send(data));
    let info: ConnectInfo | undefined;
    let error: string | undefined;
    let ended = false;
    let rfb: RFB | undefined;
    const end = (reason: CloseReason) => {
      if (ended) return;
      ended = true;
      channel.ended();
      setState({ phase: 'ended', reason, ...(info ? { info } : {}), ...(error ? { error } : {}) });
    };
    ws.onmessage = (ev) => {
      if (ev.data instanceof ArrayBuffer) return channel.deliver(ev.data);
      const m = parseServerMessage(String(ev.data));
      if (!m) return;
      if (m.type === 'CONNECT') {
        info = m.info;
        rfb = new RFB(el, channel, { shared: true });
        rfb.scaleViewport = true;
        rfb.resizeSession = true;
        rfb.background = '#141414';
        rfb.addEventListener('clipboard', (e) => clipRef.current((e as CustomEvent<{ text: string }>).detail.text));
        handle.current = { rfb };
        channel.opened();
        setState({ phase: 'connected', info });
        rfb.focus();
      } else if (m.type === 'ERROR') error = m.err;
      else if (m.type === 'CLOSE') end(m.reason);
    };
    ws.onclose = () => end(info ? 'closed' : 'error');
    return () => {
      ws.onclose = null;
      if (ws.readyState === WebSocket.OPEN) ws.send(closeFrame());
      ws.close();
      channel.ended();
      try {
        rfb?.disconnect();
      } catch {
        // already disconnected
      }
    };
    // The desktop lives as long as its token.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);
  return { state, handle };
}
