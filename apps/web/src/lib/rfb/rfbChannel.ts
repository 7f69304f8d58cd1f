/**
 * What noVNC's RFB client reads and writes instead of a WebSocket of its own (its "raw channel":
 * `send`, `close`, `binaryType`, `readyState`, `protocol` and the `on*` handlers). The graphical
 * session's socket carries JSON control messages beside the RFB bytes, so the page owns the socket
 * and hands noVNC only the bytes (`deliver`); the replay feeds a recording the same way.
 */
export class RfbChannel {
  binaryType = 'arraybuffer';
  protocol = '';
  readyState: 'connecting' | 'open' | 'closing' | 'closed' = 'connecting';
  onopen: ((e: Event) => void) | null = null;
  onmessage: ((e: { data: ArrayBuffer }) => void) | null = null;
  onclose: ((e: { code: number; reason: string; wasClean: boolean }) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;

  /** `out`: where noVNC's bytes go (the session's socket; nowhere for a replay). */
  constructor(private readonly out: (data: ArrayBuffer | Uint8Array) => void = () => undefined) {}

  send(data: ArrayBuffer | Uint8Array): void {
    if (this.readyState === 'open') this.out(data);
  }

  close(): void {
    this.ended();
  }

  /** The channel is open: noVNC starts reading the server's greeting. */
  opened(): void {
    if (this.readyState !== 'connecting') return;
    this.readyState = 'open';
    this.onopen?.(new Event('open'));
  }

  /** RFB bytes for noVNC. */
  deliver(data: ArrayBuffer | Uint8Array): void {
    if (this.readyState !== 'open') return;
    const buf = data instanceof Uint8Array ? data.slice().buffer : data;
    this.onmessage?.({ data: buf });
  }

  ended(code = 1000): void {
    if (this.readyState === 'closed') return;
    this.readyState = 'closed';
    this.onclose?.({ code, reason: '', wasClean: true });
  }
}

/** What the gateway's side of the RFB handshake says to noVNC: version 3.8, security None, accepted. */
export const RFB_GREETING = new Uint8Array([...new TextEncoder().encode('RFB 003.008\n'), 1, 1, 0, 0, 0, 0]);

/** Base64 (a recording's `d` event) to bytes. */
export function bytesOf(b64: string): Uint8Array {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}
