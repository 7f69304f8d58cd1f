import { describe, expect, it } from 'vitest';
import { ClientFramer, RfbFrameError, ServerFramer } from './rfbFramer.ts';

/** The RFB framers of a graphical session: clipboard rules, encodings, lock, split chunks. */
const u16 = (n: number) => Buffer.from([n >> 8, n & 255]);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const i32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const cut = (type: number, text: string) =>
  Buffer.concat([Buffer.from([type, 0, 0, 0]), u32(text.length), Buffer.from(text)]);
const serverInit = Buffer.concat([
  u16(4),
  u16(2),
  Buffer.from([32, 24, 0, 1]),
  Buffer.alloc(12),
  u32(3),
  Buffer.from('abc'),
]);

function client(o: { paste?: boolean; locked?: boolean } = {}) {
  let activity = 0;
  const f = new ClientFramer({
    paste: () => Boolean(o.paste),
    locked: () => Boolean(o.locked),
    activity: () => activity++,
    pixelFormat: () => undefined,
  });
  f.push(Buffer.from([1])); // ClientInit
  return { f, activity: () => activity };
}

function server(copy: boolean) {
  const f = new ServerFramer({ copy: () => copy, bitsPerPixel: () => 32, serverInit: () => undefined });
  expect(f.push(serverInit)).toEqual(serverInit);
  return f;
}

/** Feeds one byte at a time: framing must not depend on how the stream was cut. */
const bytewise = (f: { push(b: Buffer): Buffer }, b: Buffer) =>
  Buffer.concat([...b].map((x) => f.push(Buffer.from([x]))));

describe('browser to asset', () => {
  const key = Buffer.from([4, 1, 0, 0, 0, 0, 0, 0x61]);
  it('drops the clipboard without paste, passes it with paste, whole or cut byte by byte', () => {
    const msg = Buffer.concat([key, cut(6, 'secret text'), key]);
    expect(client().f.push(msg)).toEqual(Buffer.concat([key, key]));
    expect(bytewise(client().f, msg)).toEqual(Buffer.concat([key, key]));
    expect(client({ paste: true }).f.push(msg)).toEqual(msg);
    expect(bytewise(client({ paste: true }).f, msg)).toEqual(msg);
  });

  it('drops keys, pointer and clipboard while locked, keeps update requests, counts activity otherwise', () => {
    const request = Buffer.concat([Buffer.from([3, 1]), Buffer.alloc(8)]);
    const pointer = Buffer.from([5, 0, 0, 1, 0, 1]);
    const locked = client({ locked: true, paste: true });
    expect(locked.f.push(Buffer.concat([key, pointer, cut(6, 'x'), request]))).toEqual(request);
    expect(locked.activity()).toBe(0);
    const open = client();
    expect(open.f.push(Buffer.concat([key, pointer]))).toEqual(Buffer.concat([key, pointer]));
    expect(open.activity()).toBe(2);
  });

  it('narrows SetEncodings to what the gateway can frame', () => {
    const asked = [7, 16, 0, 0xc0a1e5ce | 0, -312, -313, 1, -223, -308, -258];
    const msg = Buffer.concat([Buffer.from([2, 0]), u16(asked.length), ...asked.map(i32)]);
    const out = bytewise(client().f, msg);
    expect(out).toEqual(Buffer.concat([Buffer.from([2, 0]), u16(5), ...[16, 0, 1, -223, -308].map(i32)]));
  });

  it('refuses a message it cannot frame and an extended clipboard', () => {
    expect(() => client().f.push(Buffer.from([150, 1, 0, 0, 0, 0, 0, 0, 0, 0]))).toThrow(RfbFrameError);
    expect(() => client({ paste: true }).f.push(Buffer.concat([Buffer.from([6, 0, 0, 0]), i32(-8)]))).toThrow(
      RfbFrameError,
    );
  });
});

describe('asset to browser', () => {
  const raw = Buffer.concat([Buffer.from([0, 0]), u16(2), u16(0), u16(0), u16(2), u16(1), i32(0), Buffer.alloc(8, 7)]);
  const zrle = Buffer.concat([u16(0), u16(1), u16(4), u16(1), i32(16), u32(5), Buffer.from('zzzzz')]);
  const update = Buffer.concat([raw, zrle]);
  it('passes framebuffer updates through and drops the clipboard without copy', () => {
    const msg = Buffer.concat([update, cut(3, 'from the desktop'), Buffer.from([2]), update]);
    expect(bytewise(server(false), msg)).toEqual(Buffer.concat([update, Buffer.from([2]), update]));
    expect(bytewise(server(true), msg)).toEqual(msg);
  });

  it('frames LastRect-terminated updates, cursors and colour maps', () => {
    const cursor = Buffer.concat([u16(0), u16(0), u16(2), u16(2), i32(-239), Buffer.alloc(2 * 2 * 4 + 2)]);
    const last = Buffer.concat([Buffer.alloc(8), i32(-224)]);
    const open = Buffer.concat([Buffer.from([0, 0]), u16(0xffff), cursor, last]);
    const colours = Buffer.concat([Buffer.from([1, 0]), u16(0), u16(1), Buffer.alloc(6)]);
    const msg = Buffer.concat([open, colours, cut(3, 'x')]);
    expect(bytewise(server(false), msg)).toEqual(Buffer.concat([open, colours]));
  });

  it('refuses an encoding it cannot frame', () => {
    const tight = Buffer.concat([Buffer.from([0, 0]), u16(1), Buffer.alloc(8), i32(7), Buffer.alloc(4)]);
    expect(() => server(true).push(tight)).toThrow(RfbFrameError);
  });
});
