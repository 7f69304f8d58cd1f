import dgram from 'node:dgram';
import net from 'node:net';
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import radius from 'radius';

/** Where the RADIUS server is and how long it may take (Settings › Auth › Radius). */
export interface RadiusConfig {
  server: string;
  port: number;
  secret: string;
  /** The whole exchange, retransmissions included. */
  timeoutMs: number;
}

/** The server did not answer in time, or could not be reached: nobody's password was checked. */
export class RadiusUnavailable extends Error {}

/** RFC 2865 §5.2: a User-Password is at most 128 octets. */
const MAX_PASSWORD_BYTES = 128;
const MAX_ATTRIBUTE_BYTES = 253;
/** Sends of one request within the timeout (UDP may lose one). */
const SENDS = 3;

const ACCESS_ACCEPT = 2;
const ACCESS_REJECT = 3;
const ACCESS_CHALLENGE = 11;

/**
 * Whether `response` answers `request` (RFC 2865 §3): same identifier, a known code, and the
 * Response Authenticator MD5(code | id | length | request authenticator | attributes | secret),
 * compared in constant time. (The package's verify_response compares the digests as UTF-8
 * strings, which lets different bytes compare equal.)
 */
function answers(request: Buffer, response: Buffer, secret: string): boolean {
  if (response.length < 20 || response[1] !== request[1]) return false;
  if (![ACCESS_ACCEPT, ACCESS_REJECT, ACCESS_CHALLENGE].includes(response[0]!)) return false;
  const length = response.readUInt16BE(2);
  if (length < 20 || length > response.length) return false;
  const expected = createHash('md5')
    .update(response.subarray(0, 4))
    .update(request.subarray(4, 20))
    .update(response.subarray(20, length))
    .update(secret)
    .digest();
  return timingSafeEqual(expected, response.subarray(4, 20));
}

/**
 * One PAP Access-Request (RFC 2865) with a Message-Authenticator (RFC 3579, which a server may
 * require): true on Access-Accept, false on Access-Reject or a challenge (not supported). Answers
 * that do not verify with the shared secret, or answer another request, are ignored, so a forged
 * accept or reject from elsewhere cannot decide.
 */
export async function radiusCheck(config: RadiusConfig, username: string, password: string): Promise<boolean> {
  if (!password || Buffer.byteLength(password) > MAX_PASSWORD_BYTES) return false;
  // An attribute holds at most 253 octets: a longer name cannot be a RADIUS user.
  if (!username || Buffer.byteLength(username) > MAX_ATTRIBUTE_BYTES) return false;
  const request = radius.encode({
    code: 'Access-Request',
    secret: config.secret,
    identifier: randomInt(256),
    attributes: [
      ['User-Name', username],
      ['User-Password', password],
      ['NAS-Identifier', 'gatehouse'],
    ],
    add_message_authenticator: true,
  });
  const socket = dgram.createSocket(net.isIPv6(config.server) ? 'udp6' : 'udp4');
  try {
    return await new Promise<boolean>((resolve, reject) => {
      const every = Math.max(1, Math.floor(config.timeoutMs / SENDS));
      let sent = 0;
      const send = () => {
        sent += 1;
        socket.send(request, config.port, config.server, (e) => {
          if (e) reject(new RadiusUnavailable(e.message));
        });
      };
      const timer = setInterval(() => {
        if (sent >= SENDS) reject(new RadiusUnavailable(`no answer from ${config.server}:${config.port}`));
        else send();
      }, every);
      socket.on('error', (e) => reject(new RadiusUnavailable(e.message)));
      socket.on('message', (response) => {
        if (!answers(request, response, config.secret)) return;
        resolve(response[0] === ACCESS_ACCEPT);
      });
      socket.once('close', () => clearInterval(timer));
      send();
    });
  } finally {
    socket.close();
  }
}
