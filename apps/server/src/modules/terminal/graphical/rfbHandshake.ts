import type { Duplex } from 'node:stream';
import { ByteReader } from './byteReader.ts';
import { vncAuthResponse } from './des.ts';

/**
 * The two RFB handshakes of a graphical session (RFC 6143 §7.1-7.2). Upstream, the gateway is the
 * client: it answers the VNC server's security with the vault's password (VNC Authentication) or
 * None, so the browser never sees a secret. Downstream, the gateway is the server to the browser's
 * noVNC and offers only None: the browser's socket was already authorised by its connection token.
 * Both answer the bytes read past the handshake (the relay starts with them).
 */
const VERSION_38 = Buffer.from('RFB 003.008\n', 'latin1');
const SEC_NONE = 1;
const SEC_VNC = 2;

export class RfbAuthError extends Error {
  constructor(
    message: string,
    /** `auth`: the server refused the password; `unsupported`: no security type the gateway speaks. */
    readonly kind: 'auth' | 'unsupported' | 'protocol',
  ) {
    super(message);
  }
}

/** Authenticates to the VNC server on `sock` with `password` (empty: only None is acceptable). */
export async function upstreamHandshake(sock: Duplex, password: string): Promise<Buffer> {
  const r = new ByteReader(sock);
  try {
    const version = (await r.read(12)).toString('latin1');
    const m = /^RFB (\d{3})\.(\d{3})\n$/.exec(version);
    if (!m) throw new RfbAuthError('not a VNC server', 'protocol');
    const minor = Number(m[1]) > 3 ? 8 : Number(m[2]);
    const v33 = minor < 7;
    sock.write(v33 ? Buffer.from('RFB 003.003\n', 'latin1') : VERSION_38);
    let type: number;
    if (v33) {
      type = await r.u32();
      if (type === 0) throw new RfbAuthError(await r.reason(), 'protocol');
    } else {
      const n = await r.u8();
      if (n === 0) throw new RfbAuthError(await r.reason(), 'protocol');
      const offered = [...(await r.read(n))];
      type = password && offered.includes(SEC_VNC) ? SEC_VNC : offered.includes(SEC_NONE) ? SEC_NONE : 0;
      if (!type && offered.includes(SEC_VNC)) type = SEC_VNC;
      if (!type) throw new RfbAuthError(`security types ${offered.join(',')}`, 'unsupported');
      sock.write(Buffer.from([type]));
    }
    if (type === SEC_VNC) {
      const challenge = await r.read(16);
      sock.write(vncAuthResponse(password, challenge));
    } else if (type !== SEC_NONE) throw new RfbAuthError(`security type ${type}`, 'unsupported');
    // 3.3 sends no result for None; 3.7 none for None either; 3.8 always.
    if (type === SEC_VNC || minor >= 8) {
      const result = await r.u32();
      if (result !== 0) throw new RfbAuthError(minor >= 8 ? await r.reason() : 'authentication failed', 'auth');
    }
    return r.detach();
  } catch (e) {
    r.detach();
    throw e;
  }
}

/** Greets the browser's noVNC as a server offering only None; answers what it sent after (its ClientInit). */
export async function downstreamHandshake(sock: Duplex): Promise<Buffer> {
  const r = new ByteReader(sock, 30_000);
  try {
    sock.write(VERSION_38);
    const version = (await r.read(12)).toString('latin1');
    if (!/^RFB 003\.00[78]\n$/.test(version)) throw new RfbAuthError('unsupported client version', 'protocol');
    sock.write(Buffer.from([1, SEC_NONE]));
    if ((await r.u8()) !== SEC_NONE) throw new RfbAuthError('the client chose another security type', 'protocol');
    sock.write(Buffer.alloc(4));
    return r.detach();
  } catch (e) {
    r.detach();
    throw e;
  }
}
