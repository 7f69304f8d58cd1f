import type { Duplex } from 'node:stream';
import type { Kysely } from 'kysely';
import ssh2 from 'ssh2';
import type { Language } from '@gatehouse/contract';
import type { DB } from '../../../platform/db/schema.ts';
import { GatewayError } from './gatewayError.ts';
import { checkHostKey, keyType, openTunnel, READY_TIMEOUT_MS } from './sshConnect.ts';
import type { Hop } from './sshTarget.ts';

/**
 * The host key an SSH server presents, checked against the one trusted for it (`terminal_hostkey`,
 * trusted on first use as the gateway's own connections do), without logging in. For programs that
 * make their own SSH connections (Ansible): they are then told to accept that key and no other.
 * Answers the key in OpenSSH's `known_hosts` form (`<type> <base64>`).
 */
export async function probeHostKey(db: Kysely<DB>, lang: Language, hop: Hop, gateway?: Hop): Promise<string> {
  if (!gateway) return probe(db, lang, hop);
  const { sock, jump } = await openTunnel(db, lang, gateway, hop);
  try {
    return await probe(db, lang, hop, sock);
  } finally {
    jump.end();
  }
}

function probe(db: Kysely<DB>, lang: Language, hop: Hop, sock?: Duplex): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = new ssh2.Client();
    let settled = false;
    const settle = (e: Error | undefined, key?: string) => {
      if (settled) return;
      settled = true;
      c.end();
      if (e) reject(e);
      else resolve(key!);
    };
    const failed = (e: Error) =>
      settle(new GatewayError('connect_failed', lang, { target: `${hop.host}:${hop.port}`, error: e.message }));
    c.on('error', failed);
    c.once('close', () => failed(new Error('connection closed')));
    c.connect({
      ...(sock ? { sock } : { host: hop.host, port: hop.port }),
      username: hop.credentials.username,
      readyTimeout: READY_TIMEOUT_MS,
      hostVerifier: (key: Buffer, verify: (ok: boolean) => void) => {
        // Settled before the handshake is refused (which ends it with an error of its own).
        checkHostKey(db, hop, key).then(
          (changed) => {
            if (changed)
              settle(
                new GatewayError('hostkey_changed', lang, {
                  host: hop.host,
                  port: hop.port,
                  old: changed.old,
                  new: changed.new,
                }),
              );
            else settle(undefined, `${keyType(key)} ${key.toString('base64')}`);
            verify(false);
          },
          (e: Error) => {
            failed(e);
            verify(false);
          },
        );
      },
    } as ssh2.ConnectConfig);
  });
}
