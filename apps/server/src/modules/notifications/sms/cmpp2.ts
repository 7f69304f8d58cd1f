import net from 'node:net';
import { createHash } from 'node:crypto';
import { str, type SmsBackend } from './smsConfig.ts';

/**
 * CMPP 2.0 (China Mobile Peer to Peer, the SP-to-ISMG protocol) over TCP: CMPP_CONNECT with the
 * MD5 authenticator (SP id, 9 zero bytes, shared secret, MMDDHHMMSS), one CMPP_SUBMIT of the
 * code's text in UCS-2 (`【sign】` + the template with `{code}` replaced) to the phone, then the
 * connection is closed. A non-zero status or result is the ISMG's refusal. Built to the specification;
 * the tests run it against a stand-in ISMG.
 */
export const CMD = {
  CONNECT: 0x00000001,
  CONNECT_RESP: 0x80000001,
  TERMINATE: 0x00000002,
  SUBMIT: 0x00000004,
  SUBMIT_RESP: 0x80000004,
} as const;

const fixed = (s: string, len: number) => {
  const b = Buffer.alloc(len);
  b.write(s.slice(0, len), 'ascii');
  return b;
};

export function frame(cmd: number, seq: number, body: Buffer): Buffer {
  const h = Buffer.alloc(12);
  h.writeUInt32BE(12 + body.length, 0);
  h.writeUInt32BE(cmd, 4);
  h.writeUInt32BE(seq, 8);
  return Buffer.concat([h, body]);
}

/** MMDDHHMMSS of a date (local time of the SP, as the ISMG expects). */
function stamp(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getMonth() + 1)}${p(d.getDate())}${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

export function authenticator(spId: string, secret: string, ts: string): Buffer {
  return createHash('md5')
    .update(
      Buffer.concat([
        Buffer.from(spId, 'ascii'),
        Buffer.alloc(9),
        Buffer.from(secret, 'utf8'),
        Buffer.from(ts, 'ascii'),
      ]),
    )
    .digest();
}

function ucs2be(text: string): Buffer {
  const le = Buffer.from(text, 'utf16le');
  for (let i = 0; i + 1 < le.length; i += 2) {
    const a = le[i]!;
    le[i] = le[i + 1]!;
    le[i + 1] = a;
  }
  return le;
}

function submitBody(o: { spId: string; serviceId: string; srcId: string; phone: string; text: string }): Buffer {
  const content = ucs2be(o.text).subarray(0, 140);
  return Buffer.concat([
    Buffer.alloc(8), // Msg_Id
    Buffer.from([1, 1, 0, 0]), // Pk_total, Pk_number, Registered_Delivery, Msg_level
    fixed(o.serviceId, 10),
    Buffer.from([0]), // Fee_UserType
    fixed('', 21), // Fee_terminal_Id
    Buffer.from([0, 0, 8]), // TP_pId, TP_udhi, Msg_Fmt (UCS2)
    fixed(o.spId, 6), // Msg_src
    fixed('01', 2), // FeeType: free
    fixed('000000', 6), // FeeCode
    fixed('', 17), // ValId_Time
    fixed('', 17), // At_Time
    fixed(o.srcId, 21),
    Buffer.from([1]), // DestUsr_tl
    fixed(o.phone.replace(/^\+?86/, ''), 21),
    Buffer.from([content.length]),
    content,
    Buffer.alloc(8), // Reserve
  ]);
}

/** Sends frames and reads the answers, one at a time, within 10 s in all. */
async function session(host: string, port: number, run: (ask: (f: Buffer) => Promise<Buffer>) => Promise<void>) {
  const sock = net.connect(port, host);
  sock.setTimeout(10_000);
  let buf = Buffer.alloc(0);
  let waiting: { resolve: (b: Buffer) => void; reject: (e: Error) => void } | undefined;
  const fail = (e: Error) => waiting?.reject(e);
  sock.on('data', (d: Buffer) => {
    buf = Buffer.concat([buf, d]);
    if (buf.length >= 4 && buf.length >= buf.readUInt32BE(0) && waiting) {
      const len = buf.readUInt32BE(0);
      const f = buf.subarray(0, len);
      buf = buf.subarray(len);
      const w = waiting;
      waiting = undefined;
      w.resolve(f);
    }
  });
  sock.on('error', fail);
  sock.on('timeout', () => fail(new Error('timed out')));
  sock.on('close', () => fail(new Error('connection closed')));
  await new Promise<void>((resolve, reject) => {
    sock.once('connect', resolve);
    sock.once('error', reject);
  });
  const ask = (f: Buffer) =>
    new Promise<Buffer>((resolve, reject) => {
      waiting = { resolve, reject };
      sock.write(f);
    });
  try {
    await run(ask);
  } finally {
    sock.destroy();
  }
}

export const cmpp2: SmsBackend = {
  name: 'cmpp2',
  async send(s, m) {
    const spId = await str(s, 'CMPP2_SP_ID');
    const ts = stamp(new Date());
    const text = `【${await str(s, 'CMPP2_VERIFY_SIGN_NAME')}】${(await str(s, 'CMPP2_VERIFY_TEMPLATE_CODE')).replaceAll('{code}', m.code)}`;
    const port = Number(await s.value('CMPP2_PORT')) || 7890;
    await session(await str(s, 'CMPP2_HOST'), port, async (ask) => {
      const connect = Buffer.concat([
        fixed(spId, 6),
        authenticator(spId, await s.secret('CMPP2_SP_SECRET'), ts),
        Buffer.from([0x20]),
        Buffer.alloc(4),
      ]);
      connect.writeUInt32BE(Number(ts), 23);
      const c = await ask(frame(CMD.CONNECT, 1, connect));
      if (c.readUInt32BE(4) !== CMD.CONNECT_RESP || c[12] !== 0) throw new Error(`CMPP connect refused: ${c[12]}`);
      const body = submitBody({
        spId,
        serviceId: await str(s, 'CMPP2_SERVICE_ID'),
        srcId: await str(s, 'CMPP2_SRC_ID'),
        phone: m.phone,
        text,
      });
      const r = await ask(frame(CMD.SUBMIT, 2, body));
      if (r.readUInt32BE(4) !== CMD.SUBMIT_RESP || r[20] !== 0) throw new Error(`CMPP submit refused: ${r[20]}`);
    });
  },
};
