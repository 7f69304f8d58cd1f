import net from 'node:net';
import WebSocket from 'ws';
import { upstreamHandshake } from '../src/modules/terminal/graphical/rfbHandshake.ts';

/**
 * Test helper: the browser's side of a graphical session on the gateway's socket, as noVNC speaks
 * it but small: the JSON control messages, the RFB handshake (security None), Raw and CopyRect
 * framebuffer updates kept in a 32-bit framebuffer (so a test can see what the screen shows),
 * the server's clipboard, keys, pointer and the client's clipboard.
 */
export interface Control {
  type: string;
  id?: string;
  err?: string;
  reason?: string;
  data?: Record<string, unknown>;
}

export function rfbClient(url: string, opts: { headers?: Record<string, string>; encodings?: number[] } = {}) {
  const ws = new WebSocket(url, { headers: opts.headers ?? {} });
  const control: Control[] = [];
  const core = rfbCore((b) => ws.send(b, { binary: true }), 'version', opts.encodings);
  ws.on('message', (raw, isBinary) => {
    if (!isBinary) {
      control.push(JSON.parse(String(raw)) as Control);
      return;
    }
    core.feed(raw as Buffer);
  });
  const closed = new Promise<void>((r) => ws.once('close', () => r()));
  return extend(core, {
    ws,
    control,
    closed,
    async waitFor(test: () => boolean, what: string, ms = 15_000) {
      for (let waited = 0; !test(); waited += 25) {
        if (waited > ms) throw new Error(`no ${what}: ${JSON.stringify(control).slice(0, 1000)}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
  });
}

/** `core` with more members, its getters (width, updates...) still live (a spread would copy their values). */
function extend<A extends object, B extends object>(core: A, more: B): A & B {
  return Object.assign(Object.create(core) as A, more);
}

/** The same client straight to a VNC server on TCP (VNC Authentication done with `password`): the benchmark's baseline. */
export async function rfbDirect(port: number, password: string, encodings?: number[]) {
  const sock = net.connect(port, '127.0.0.1');
  await new Promise((r, j) => sock.once('connect', r).once('error', j));
  sock.setNoDelay(true);
  const rest = await upstreamHandshake(sock, password);
  const core = rfbCore((b) => sock.write(b), 'result-done', encodings);
  sock.on('data', (b: Buffer) => core.feed(b));
  if (rest.length) core.feed(rest);
  return extend(core, { close: () => sock.destroy() });
}

/**
 * The RFB client itself over any transport (`sendBin`): from the server's version (`version`) or,
 * after a handshake done elsewhere, from ClientInit on (`result-done`).
 */
function rfbCore(sendBin: (b: Buffer) => void, start: 'version' | 'result-done', encodingsOpt?: number[]) {
  const opts = { encodings: encodingsOpt };
  const clipboard: string[] = [];
  /** When each framebuffer update was complete (epoch ms, sub-millisecond). */
  const arrivals: number[] = [];
  let buf = Buffer.alloc(0);
  let phase: 'version' | 'security' | 'result' | 'init' | 'messages' = start === 'version' ? 'version' : 'init';
  if (start === 'result-done') sendBin(Buffer.from([1]));
  let width = 0;
  let height = 0;
  let fb = new Uint8Array(0);
  let updates = 0;
  let bytes = 0;
  const requestUpdate = (incremental: boolean) => {
    const m = Buffer.alloc(10);
    m[0] = 3;
    m[1] = incremental ? 1 : 0;
    m.writeUInt16BE(width, 6);
    m.writeUInt16BE(height, 8);
    sendBin(m);
  };
  /** One step of parsing: answers false when more bytes are needed. */
  const step = (): boolean => {
    if (phase === 'version') {
      if (buf.length < 12) return false;
      buf = buf.subarray(12);
      sendBin(Buffer.from('RFB 003.008\n', 'latin1'));
      phase = 'security';
      return true;
    }
    if (phase === 'security') {
      if (buf.length < 1 || buf.length < 1 + buf[0]!) return false;
      buf = buf.subarray(1 + buf[0]!);
      sendBin(Buffer.from([1]));
      phase = 'result';
      return true;
    }
    if (phase === 'result') {
      if (buf.length < 4) return false;
      buf = buf.subarray(4);
      sendBin(Buffer.from([1])); // ClientInit: shared
      phase = 'init';
      return true;
    }
    if (phase === 'init') {
      if (buf.length < 24 || buf.length < 24 + buf.readUInt32BE(20)) return false;
      width = buf.readUInt16BE(0);
      height = buf.readUInt16BE(2);
      fb = new Uint8Array(width * height * 4);
      buf = buf.subarray(24 + buf.readUInt32BE(20));
      const enc = opts.encodings ?? [0, 1, -223];
      const m = Buffer.alloc(4 + enc.length * 4);
      m[0] = 2;
      m.writeUInt16BE(enc.length, 2);
      enc.forEach((e, i) => m.writeInt32BE(e, 4 + i * 4));
      sendBin(m);
      requestUpdate(false);
      phase = 'messages';
      return true;
    }
    const type = buf[0];
    if (type === undefined) return false;
    if (type === 0) {
      if (buf.length < 4) return false;
      const n = buf.readUInt16BE(2);
      let o = 4;
      const rects: [number, number, number, number, number, number][] = [];
      for (let i = 0; i < n; i++) {
        if (buf.length < o + 12) return false;
        const [x, y, w, h, enc] = [
          buf.readUInt16BE(o),
          buf.readUInt16BE(o + 2),
          buf.readUInt16BE(o + 4),
          buf.readUInt16BE(o + 6),
          buf.readInt32BE(o + 8),
        ];
        o += 12;
        // ZRLE (16): framed by its length only (not drawn: the benchmark needs when updates complete).
        if (enc === 16 && buf.length < o + 4) return false;
        const len = enc === 0 ? w * h * 4 : enc === 1 ? 4 : enc === 16 ? 4 + buf.readUInt32BE(o) : 0;
        if (buf.length < o + len) return false;
        rects.push([x, y, w, h, enc, o]);
        o += len;
      }
      for (const [x, y, w, h, enc, at] of rects) {
        if (enc === -223) {
          width = w;
          height = h;
          fb = new Uint8Array(w * h * 4);
        } else if (enc === 0)
          for (let r = 0; r < h; r++)
            fb.set(buf.subarray(at + r * w * 4, at + (r + 1) * w * 4), ((y + r) * width + x) * 4);
        else if (enc === 1) {
          const sx = buf.readUInt16BE(at);
          const sy = buf.readUInt16BE(at + 2);
          const copy = fb.slice();
          for (let r = 0; r < h; r++)
            fb.set(
              copy.subarray(((sy + r) * width + sx) * 4, ((sy + r) * width + sx + w) * 4),
              ((y + r) * width + x) * 4,
            );
        }
      }
      buf = buf.subarray(o);
      updates++;
      arrivals.push(performance.timeOrigin + performance.now());
      requestUpdate(true);
      return true;
    }
    if (type === 3) {
      if (buf.length < 8 || buf.length < 8 + buf.readUInt32BE(4)) return false;
      clipboard.push(buf.subarray(8, 8 + buf.readUInt32BE(4)).toString('latin1'));
      buf = buf.subarray(8 + buf.readUInt32BE(4));
      return true;
    }
    if (type === 2) {
      buf = buf.subarray(1);
      return true;
    }
    if (type === 1) {
      if (buf.length < 6 || buf.length < 6 + buf.readUInt16BE(4) * 6) return false;
      buf = buf.subarray(6 + buf.readUInt16BE(4) * 6);
      return true;
    }
    throw new Error(`unexpected server message ${type}`);
  };
  const feed = (b: Buffer) => {
    bytes += b.length;
    buf = Buffer.concat([buf, b]);
    while (step());
  };
  const key = (keysym: number) => {
    for (const down of [1, 0]) {
      const m = Buffer.alloc(8);
      m[0] = 4;
      m[1] = down;
      m.writeUInt32BE(keysym, 4);
      sendBin(m);
    }
  };
  return {
    feed,
    clipboard,
    arrivals,
    get width() {
      return width;
    },
    get height() {
      return height;
    },
    get updates() {
      return updates;
    },
    /** RFB bytes received. */
    get bytes() {
      return bytes;
    },
    connected: () => phase === 'messages',
    /** Asks for the whole screen again: its answer comes after anything the server sent before. */
    refresh: () => requestUpdate(false),
    /** Bright pixels (any channel over 0x80) in the rectangle: text drawn in white on black. */
    bright(x0 = 0, y0 = 0, w = width, h = height): number {
      let n = 0;
      for (let y = y0; y < y0 + h; y++)
        for (let x = x0; x < x0 + w; x++) {
          const i = (y * width + x) * 4;
          if (fb[i]! > 0x80 || fb[i + 1]! > 0x80 || fb[i + 2]! > 0x80) n++;
        }
      return n;
    },
    /** Types text (ASCII) and Enter. */
    typeLine(text: string) {
      for (const ch of text) key(ch.charCodeAt(0));
      key(0xff0d);
    },
    pointer(x: number, y: number, buttons = 0) {
      const m = Buffer.alloc(6);
      m[0] = 5;
      m[1] = buttons;
      m.writeUInt16BE(x, 2);
      m.writeUInt16BE(y, 4);
      sendBin(m);
    },
    paste(text: string) {
      const t = Buffer.from(text, 'latin1');
      const m = Buffer.alloc(8);
      m[0] = 6;
      m.writeUInt32BE(t.length, 4);
      sendBin(Buffer.concat([m, t]));
    },
  };
}
