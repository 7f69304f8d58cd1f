import type { SFTPWrapper } from 'ssh2';

/**
 * DATA replies of the native SFTP relay (sftpSubsystem.ts) without a copy: ssh2's `data()` copies
 * every reply into a new buffer, so a READ is read from the asset straight into its reply packet
 * (`dataPacket`) and sent as it is (`sendData`). The packet goes out as ssh2's own do
 * (node_modules/ssh2/lib/protocol/SFTP.js, `tryWritePayload`): cut to the client's packet size,
 * within its window, the rest queued in order behind what ssh2 queued and sent when the window
 * opens again (ssh2 calls `_chunkcb` then, ours or its own: both drain the same queue).
 *
 * OpenSSH's `limits@openssh.com` is deliberately not announced: with it OpenSSH's clients send
 * 255 KiB requests, and each one is then received whole by the gateway before it goes on (store
 * and forward) within the same 2 MiB channel windows: the bench measured 1.6x and 1.8x direct
 * with it, about 1.0x without (docs/sftp.md).
 */
/** The longest READ answered (OpenSSH's SFTP_MAX_READ_LENGTH, 256 KiB - 1 KiB): a longer one gets less. */
export const SFTP_MAX_DATA = 256 * 1024 - 1024;
/** uint32 length, byte type, uint32 request id, uint32 data length. */
export const DATA_HEADER = 13;

const SSH_FXP_DATA = 103;

interface SftpInternals {
  _buffer: Buffer[];
  _waitWindow: boolean;
  _chunkcb: (() => void) | undefined;
  _protocol: { channelData(id: number, data: Buffer): void };
  outgoing: { id: number; window: number; packetSize: number; state: string };
}

const internals = (w: SFTPWrapper) => w as unknown as SftpInternals;

/** Sends what the window allows; answers the rest (ssh2's tryWritePayload). */
function writeSome(s: SftpInternals, payload: Buffer): Buffer | undefined {
  const o = s.outgoing;
  if (o.state !== 'open') return undefined;
  if (o.window === 0) {
    s._waitWindow = true;
    s._chunkcb = drain;
    return payload;
  }
  let p = 0;
  while (p < payload.length && o.window > 0) {
    const n = Math.min(payload.length - p, o.window, o.packetSize);
    o.window -= n;
    if (o.window === 0) {
      s._waitWindow = true;
      s._chunkcb = drain;
    }
    s._protocol.channelData(o.id, p === 0 && n === payload.length ? payload : payload.subarray(p, p + n));
    p += n;
  }
  return p < payload.length ? payload.subarray(p) : undefined;
}

/** Called by ssh2 (as the channel) when the client's window opens (ssh2's drainBuffer). */
function drain(this: SftpInternals): void {
  this._chunkcb = undefined;
  const queued = this._buffer;
  for (let i = 0; i < queued.length; i++) {
    const rest = writeSome(this, queued[i]!);
    if (rest !== undefined) {
      queued[i] = rest;
      this._buffer = queued.slice(i);
      return;
    }
  }
  this._buffer = [];
}

function send(s: SftpInternals, packet: Buffer): void {
  if (s._buffer.length) {
    s._buffer.push(packet);
    return;
  }
  const rest = writeSome(s, packet);
  if (rest !== undefined) s._buffer.push(rest);
}

/** A DATA packet with room for `len` bytes at DATA_HEADER. */
export function dataPacket(len: number): Buffer {
  return Buffer.allocUnsafe(DATA_HEADER + len);
}

/** Sends the first `n` bytes read into a `dataPacket` as the DATA reply to `reqid`. */
export function sendData(wrapper: SFTPWrapper, reqid: number, packet: Buffer, n: number): void {
  packet.writeUInt32BE(DATA_HEADER - 4 + n, 0);
  packet[4] = SSH_FXP_DATA;
  packet.writeUInt32BE(reqid, 5);
  packet.writeUInt32BE(n, 9);
  send(internals(wrapper), packet.subarray(0, DATA_HEADER + n));
}
