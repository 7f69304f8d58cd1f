import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createHash, createHmac } from 'node:crypto';

/**
 * Local stand-ins of the SMS providers' documented APIs (none can be reached from here), each
 * checking the request's signature the way its provider documents it, independently of the
 * product's code, and recording what it accepted:
 * - Alibaba Dysmsapi `SendSms` (RPC, signature v1 HMAC-SHA1 over the sorted query);
 * - Tencent SMS 3.0 `SendSms` (TC3-HMAC-SHA256 Authorization);
 * - Huawei `batchSendSms/v1` (WSSE UsernameToken digest);
 * - a CMPP 2.0 ISMG on TCP (CONNECT authenticator, SUBMIT with a UCS-2 message).
 */
export interface Sent {
  provider: string;
  phone: string;
  /** The code or text the provider would deliver. */
  text: string;
}

export interface SmsStandIns {
  url: string;
  cmppPort: number;
  sent: Sent[];
  close(): Promise<void>;
}

export const STANDIN = { key: 'AK-test', secret: 'SK-test-secret', cmppSp: '901234', cmppSecret: 'cmpp-secret' };

const pct = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());

function alibaba(url: URL): { ok: boolean; phone: string; text: string } {
  const q = Object.fromEntries(url.searchParams);
  const { Signature, ...rest } = q;
  const canonical = Object.keys(rest)
    .sort()
    .map((k) => `${pct(k)}=${pct(rest[k]!)}`)
    .join('&');
  const expected = createHmac('sha1', `${STANDIN.secret}&`)
    .update(`GET&%2F&${pct(canonical)}`)
    .digest('base64');
  return {
    ok: Signature === expected && q.AccessKeyId === STANDIN.key && q.Action === 'SendSms',
    phone: q.PhoneNumbers ?? '',
    text: (JSON.parse(q.TemplateParam ?? '{}') as { code?: string }).code ?? '',
  };
}

function tencent(req: http.IncomingMessage, body: string): boolean {
  const ts = Number(req.headers['x-tc-timestamp']);
  const date = new Date(ts * 1000).toISOString().slice(0, 10);
  const h = (s: string) => createHash('sha256').update(s).digest('hex');
  const canonical = `POST\n/\n\ncontent-type:${req.headers['content-type']}\nhost:${req.headers.host}\n\ncontent-type;host\n${h(body)}`;
  const toSign = `TC3-HMAC-SHA256\n${ts}\n${date}/sms/tc3_request\n${h(canonical)}`;
  let key = createHmac('sha256', `TC3${STANDIN.secret}`).update(date).digest();
  key = createHmac('sha256', key).update('sms').digest();
  key = createHmac('sha256', key).update('tc3_request').digest();
  const sig = createHmac('sha256', key).update(toSign).digest('hex');
  return (
    req.headers.authorization ===
      `TC3-HMAC-SHA256 Credential=${STANDIN.key}/${date}/sms/tc3_request, SignedHeaders=content-type;host, Signature=${sig}` &&
    req.headers['x-tc-action'] === 'SendSms'
  );
}

function huawei(req: http.IncomingMessage): boolean {
  const wsse = String(req.headers['x-wsse'] ?? '');
  const get = (k: string) => new RegExp(`${k}="([^"]*)"`).exec(wsse)?.[1] ?? '';
  const digest = createHash('sha256')
    .update(get('Nonce') + get('Created') + STANDIN.secret)
    .digest('base64');
  return get('Username') === STANDIN.key && get('PasswordDigest') === digest;
}

function startCmpp(sent: Sent[]): Promise<net.Server> {
  const server = net.createServer((sock) => {
    let buf = Buffer.alloc(0);
    sock.on('error', () => undefined);
    sock.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      while (buf.length >= 4 && buf.length >= buf.readUInt32BE(0)) {
        const f = buf.subarray(0, buf.readUInt32BE(0));
        buf = buf.subarray(f.length);
        const cmd = f.readUInt32BE(4);
        const seq = f.readUInt32BE(8);
        const reply = (c: number, body: Buffer) => {
          const h = Buffer.alloc(12);
          h.writeUInt32BE(12 + body.length, 0);
          h.writeUInt32BE(c, 4);
          h.writeUInt32BE(seq, 8);
          sock.write(Buffer.concat([h, body]));
        };
        if (cmd === 0x00000001) {
          const sp = f.subarray(12, 18).toString('ascii');
          const auth = f.subarray(18, 34);
          const ts = String(f.readUInt32BE(35)).padStart(10, '0');
          const expected = createHash('md5')
            .update(Buffer.concat([Buffer.from(sp), Buffer.alloc(9), Buffer.from(STANDIN.cmppSecret), Buffer.from(ts)]))
            .digest();
          reply(
            0x80000001,
            Buffer.concat([Buffer.from([sp === STANDIN.cmppSp && auth.equals(expected) ? 0 : 3]), Buffer.alloc(17)]),
          );
        } else if (cmd === 0x00000004) {
          // Fixed fields up to DestUsr_tl: 8+4+10+1+21+3+6+2+6+17+17+21 = 116 bytes after the header.
          let o = 12 + 116;
          const n = f[o]!;
          o += 1;
          const phone = f
            .subarray(o, o + 21)
            .toString('ascii')
            .replace(/\0+$/, '');
          o += 21 * n;
          const len = f[o]!;
          const ucs = Buffer.from(f.subarray(o + 1, o + 1 + len));
          for (let i = 0; i + 1 < ucs.length; i += 2) [ucs[i], ucs[i + 1]] = [ucs[i + 1]!, ucs[i]!];
          sent.push({ provider: 'cmpp2', phone, text: ucs.toString('utf16le') });
          reply(0x80000004, Buffer.concat([Buffer.alloc(8), Buffer.from([0])]));
        }
      }
    });
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r(server)));
}

export async function startSmsStandIns(): Promise<SmsStandIns> {
  const sent: Sent[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://x');
      const json = (status: number, v: unknown) =>
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(v));
      if (url.pathname === '/alibaba/') {
        const r = alibaba(url);
        if (!r.ok) return json(400, { Code: 'SignatureDoesNotMatch', Message: 'Specified signature is not matched' });
        sent.push({ provider: 'alibaba', phone: r.phone, text: r.text });
        return json(200, { Code: 'OK', Message: 'OK', BizId: '1' });
      }
      if (url.pathname === '/tencent/') {
        if (!tencent(req, body))
          return json(200, { Response: { Error: { Code: 'AuthFailure.SignatureFailure', Message: 'signature' } } });
        const b = JSON.parse(body) as { PhoneNumberSet: string[]; TemplateParamSet: string[] };
        sent.push({ provider: 'tencent', phone: b.PhoneNumberSet[0]!, text: b.TemplateParamSet[0]! });
        return json(200, { Response: { SendStatusSet: [{ Code: 'Ok', Message: 'send success' }] } });
      }
      if (url.pathname === '/huawei/sms/batchSendSms/v1') {
        if (!huawei(req)) return json(401, { code: 'E000004', description: 'Authentication failed' });
        const f = new URLSearchParams(body);
        sent.push({
          provider: 'huawei',
          phone: f.get('to') ?? '',
          text: (JSON.parse(f.get('templateParas') ?? '[]') as string[])[0] ?? '',
        });
        return json(200, { code: '000000', description: 'Success', result: [] });
      }
      if (url.pathname === '/custom/') {
        const v =
          req.method === 'GET' ? Object.fromEntries(url.searchParams) : (JSON.parse(body) as Record<string, string>);
        sent.push({ provider: 'custom', phone: v.to ?? '', text: v.text ?? '' });
        return json(200, { ok: true });
      }
      json(404, {});
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const cmpp = await startCmpp(sent);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cmppPort: (cmpp.address() as AddressInfo).port,
    sent,
    close: async () => {
      await new Promise((r) => server.close(r));
      await new Promise((r) => cmpp.close(r));
    },
  };
}
