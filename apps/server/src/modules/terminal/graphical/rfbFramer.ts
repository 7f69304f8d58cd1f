/**
 * The RFB messages of a relayed graphical session, found in the byte streams as they pass
 * (RFC 6143 §7.5-7.7), so the gateway can apply the permission's rules without decoding pictures:
 * the clipboard (ClientCutText / ServerCutText) crosses only where allowed, the encodings the
 * browser asks for are narrowed to those whose length can be known from their headers (Raw,
 * CopyRect, ZRLE and a few pseudo-encodings; so no extension the gateway cannot frame, such as
 * the extended clipboard, continuous updates or fences, is ever switched on), keys and pointer
 * moves count as activity and are dropped while the session is locked.
 *
 * Bytes stream through: a rectangle's pixel data is passed on as it arrives (never held whole),
 * only headers are gathered. An unknown message ends the session (`RfbFrameError`): past it the
 * stream cannot be framed.
 */
export class RfbFrameError extends Error {}

export const ENCODINGS_ALLOWED = new Set<number>([
  0, // Raw
  1, // CopyRect
  16, // ZRLE
  -223, // DesktopSize
  -308, // ExtendedDesktopSize
  -239, // Cursor
  -224, // LastRect
  ...Array.from({ length: 10 }, (_, i) => -32 + i), // JPEG quality levels (no message of their own)
  ...Array.from({ length: 10 }, (_, i) => -256 + i), // compression levels
]);

type Step = { kind: 'header'; n: number; then: (h: Buffer) => void } | { kind: 'body'; n: number; drop: boolean };

/** A streaming framer: steps of "gather n header bytes, then decide" and "pass (or drop) n bytes". */
abstract class Framer {
  private steps: Step[] = [];
  private held = Buffer.alloc(0);
  private out: Buffer[] = [];
  /** The header being gathered goes out (or not) when its step decides: `emit` in `then`. */
  protected emitHeader = true;

  /** Feeds bytes in; answers those to send on (possibly none). Throws RfbFrameError. */
  push(chunk: Buffer): Buffer {
    let data = this.held.length ? Buffer.concat([this.held, chunk]) : chunk;
    this.held = Buffer.alloc(0);
    while (data.length) {
      const step = this.steps[0] ?? this.next();
      if (step.kind === 'body') {
        const take = Math.min(step.n, data.length);
        if (!step.drop) this.out.push(data.subarray(0, take));
        step.n -= take;
        data = data.subarray(take);
        if (step.n === 0) this.steps.shift();
        continue;
      }
      if (data.length < step.n) {
        this.held = Buffer.from(data);
        break;
      }
      const h = data.subarray(0, step.n);
      data = data.subarray(step.n);
      this.steps.shift();
      this.emitHeader = true;
      step.then(h);
      if (this.emitHeader) this.out.push(h);
    }
    const out = this.out.length === 1 ? this.out[0]! : Buffer.concat(this.out);
    this.out = [];
    return out;
  }

  protected header(n: number, then: (h: Buffer) => void): void {
    this.steps.push({ kind: 'header', n, then });
  }

  protected body(n: number, drop = false): void {
    if (n > 0) this.steps.push({ kind: 'body', n, drop });
  }

  /** Replaces the header being decided with `b`. */
  protected emitInstead(b: Buffer): void {
    this.emitHeader = false;
    if (b.length) this.out.push(b);
  }

  /** The steps of the next message (called when none is pending). */
  protected abstract nextMessage(): void;

  private next(): Step {
    this.nextMessage();
    const s = this.steps[0];
    if (!s) throw new RfbFrameError('no step');
    return s;
  }
}

export interface ClientRules {
  /** Whether the browser's clipboard may reach the asset (the permission's paste). */
  paste: () => boolean;
  locked: () => boolean;
  /** A key or pointer event was sent by the user. */
  activity: () => void;
  /** The pixel format the browser asked for: bits per pixel. */
  pixelFormat: (bitsPerPixel: number) => void;
}

/** Browser -> asset, after the security handshake: ClientInit, then client messages. */
export class ClientFramer extends Framer {
  private init = true;

  constructor(private readonly rules: ClientRules) {
    super();
  }

  protected nextMessage(): void {
    if (this.init) {
      this.init = false;
      return this.header(1, () => undefined);
    }
    this.header(1, (t) => {
      this.emitInstead(Buffer.alloc(0));
      const type = t[0]!;
      const input = type === 4 || type === 5;
      if (type === 0)
        return this.header(19, (h) => {
          this.rules.pixelFormat(h[3]!);
          this.emitInstead(Buffer.concat([t, h]));
        });
      if (type === 2)
        return this.header(3, (h) => {
          const n = h.readUInt16BE(1);
          this.emitInstead(Buffer.alloc(0));
          this.header(n * 4, (list) => {
            const kept: Buffer[] = [];
            for (let i = 0; i < n; i++)
              if (ENCODINGS_ALLOWED.has(list.readInt32BE(i * 4))) kept.push(list.subarray(i * 4, i * 4 + 4));
            const head = Buffer.from([2, 0, 0, 0]);
            head.writeUInt16BE(kept.length, 2);
            this.emitInstead(Buffer.concat([head, ...kept]));
          });
        });
      if (type === 3) return this.header(9, (h) => this.emitInstead(Buffer.concat([t, h])));
      if (input)
        return this.header(type === 4 ? 7 : 5, (h) => {
          if (this.rules.locked()) return this.emitInstead(Buffer.alloc(0));
          this.rules.activity();
          this.emitInstead(Buffer.concat([t, h]));
        });
      if (type === 6)
        return this.header(7, (h) => {
          const len = h.readInt32BE(3);
          if (len < 0) throw new RfbFrameError('extended clipboard');
          const pass = this.rules.paste() && !this.rules.locked();
          this.emitInstead(pass ? Buffer.concat([t, h]) : Buffer.alloc(0));
          this.body(len, !pass);
        });
      if (type === 251)
        return this.header(7, (h) => {
          this.emitInstead(Buffer.concat([t, h]));
          this.body(h[5]! * 16);
        });
      throw new RfbFrameError(`client message ${type}`);
    });
  }
}

export interface ServerRules {
  /** Whether the asset's clipboard may reach the browser (the permission's copy). */
  copy: () => boolean;
  /** Bits per pixel of what the server sends (ServerInit's, then the browser's SetPixelFormat). */
  bitsPerPixel: () => number;
  /** ServerInit's pixel format and the screen size. */
  serverInit: (init: { width: number; height: number; bitsPerPixel: number }) => void;
}

/** Asset -> browser, after the security handshake: ServerInit, then server messages. */
export class ServerFramer extends Framer {
  private init = true;

  constructor(private readonly rules: ServerRules) {
    super();
  }

  protected nextMessage(): void {
    if (this.init) {
      this.init = false;
      return this.header(24, (h) => {
        this.rules.serverInit({ width: h.readUInt16BE(0), height: h.readUInt16BE(2), bitsPerPixel: h[4]! });
        this.body(h.readUInt32BE(20));
      });
    }
    this.header(1, (t) => {
      const type = t[0]!;
      if (type === 0) return this.header(3, (h) => this.rects(h.readUInt16BE(1)));
      if (type === 1) return this.header(5, (h) => this.body(h.readUInt16BE(3) * 6));
      if (type === 2) return;
      if (type === 3) {
        const pass = this.rules.copy();
        if (!pass) this.emitInstead(Buffer.alloc(0));
        return this.header(7, (h) => {
          if (!pass) this.emitInstead(Buffer.alloc(0));
          this.body(h.readUInt32BE(3), !pass);
        });
      }
      throw new RfbFrameError(`server message ${type}`);
    });
  }

  /** `n` rectangles (0xffff: until a LastRect). */
  private rects(n: number): void {
    if (n === 0) return;
    this.header(12, (h) => {
      const w = h.readUInt16BE(4);
      const ht = h.readUInt16BE(6);
      const enc = h.readInt32BE(8);
      const bpp = Math.max(1, this.rules.bitsPerPixel() / 8);
      const more = () => this.rects(n === 0xffff ? n : n - 1);
      if (enc === -224) return; // LastRect ends the update
      if (enc === 0) this.body(w * ht * bpp);
      else if (enc === 1) this.body(4);
      else if (enc === 16)
        return this.header(4, (l) => {
          this.body(l.readUInt32BE(0));
          more();
        });
      else if (enc === -308)
        return this.header(4, (s) => {
          this.body(s[0]! * 16);
          more();
        });
      else if (enc === -239) this.body(w * ht * bpp + Math.ceil(w / 8) * ht);
      else if (enc !== -223) throw new RfbFrameError(`encoding ${enc}`);
      more();
    });
  }
}
