import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { Kysely } from 'kysely';
import ssh2 from 'ssh2';
import type { Language } from '@gatehouse/contract';
import type { DB } from '../../../platform/db/schema.ts';
import { fingerprintOf } from '../../accounts/secrets.ts';
import { GatewayError } from './gatewayError.ts';
import type { Hop } from './sshTarget.ts';

/**
 * ssh2 connections to assets: host keys are trusted on first use (recorded per asset, host and
 * port in `terminal_hostkey`) and a different key later refuses the connection with a message
 * naming both fingerprints. Through a domain gateway, the gateway is reached first and the
 * asset's connection runs inside its `forwardOut` channel (an SSH jump).
 */
export const READY_TIMEOUT_MS = 15000;

export function keyType(key: Buffer): string {
  if (key.length < 4) return '';
  const n = key.readUInt32BE(0);
  return key.subarray(4, 4 + n).toString('latin1');
}

export async function checkHostKey(
  db: Kysely<DB>,
  hop: Hop,
  key: Buffer,
): Promise<{ old: string; new: string } | undefined> {
  const fingerprint = fingerprintOf(key);
  const known = await db
    .selectFrom('terminal_hostkey')
    .select(['fingerprint'])
    .where('asset_id', '=', hop.assetId)
    .where('host', '=', hop.host)
    .where('port', '=', hop.port)
    .executeTakeFirst();
  if (known) return known.fingerprint === fingerprint ? undefined : { old: known.fingerprint, new: fingerprint };
  await db
    .insertInto('terminal_hostkey')
    .values({
      id: randomUUID(),
      asset_id: hop.assetId,
      host: hop.host,
      port: hop.port,
      key_type: keyType(key),
      fingerprint,
      date_created: new Date().toISOString(),
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  return undefined;
}

function connectHop(db: Kysely<DB>, lang: Language, hop: Hop, sock?: Duplex): Promise<ssh2.Client> {
  return new Promise((resolve, reject) => {
    const c = new ssh2.Client();
    let refusal: GatewayError | undefined;
    let settled = false;
    const fail = (e: Error) => {
      if (settled) return;
      settled = true;
      c.end();
      reject(
        refusal ??
          (e instanceof GatewayError
            ? e
            : new GatewayError('connect_failed', lang, { target: `${hop.host}:${hop.port}`, error: e.message })),
      );
    };
    c.once('ready', () => {
      settled = true;
      c.setNoDelay(true);
      resolve(c);
    });
    c.on('error', fail);
    c.once('close', () => fail(new Error('connection closed')));
    const { credentials: cr } = hop;
    c.connect({
      ...(sock ? { sock } : { host: hop.host, port: hop.port }),
      username: cr.username,
      readyTimeout: READY_TIMEOUT_MS,
      keepaliveInterval: 30000,
      tryKeyboard: false,
      ...(cr.password !== undefined ? { password: cr.password } : {}),
      ...(cr.privateKey !== undefined ? { privateKey: cr.privateKey } : {}),
      ...(cr.passphrase ? { passphrase: cr.passphrase } : {}),
      hostVerifier: (key: Buffer, verify: (ok: boolean) => void) => {
        checkHostKey(db, hop, key).then(
          (changed) => {
            if (changed)
              refusal = new GatewayError('hostkey_changed', lang, {
                host: hop.host,
                port: hop.port,
                old: changed.old,
                new: changed.new,
              });
            verify(!changed);
          },
          () => verify(false),
        );
      },
    } as ssh2.ConnectConfig);
  });
}

/** An SSH connection to a jump host (a domain's gateway), for callers that open channels through it. */
export function connectJump(db: Kysely<DB>, lang: Language, hop: Hop): Promise<ssh2.Client> {
  return connectHop(db, lang, hop);
}

export interface SshLink {
  client: ssh2.Client;
  /** Ends the asset's connection and the gateway's. */
  end(): void;
}

export interface Tunnel {
  /** A TCP stream to the target, inside the gateway's SSH connection. */
  sock: Duplex;
  jump: ssh2.Client;
}

/** A TCP stream to `host:port` through the domain gateway (`forwardOut`); end `jump` to close it. */
export async function openTunnel(
  db: Kysely<DB>,
  lang: Language,
  gateway: Hop,
  target: { host: string; port: number },
): Promise<Tunnel> {
  const jump = await connectHop(db, lang, gateway);
  try {
    const sock = await new Promise<Duplex>((resolve, reject) =>
      jump.forwardOut('127.0.0.1', 0, target.host, target.port, (err, ch) =>
        err
          ? reject(
              new GatewayError('connect_failed', lang, { target: `${target.host}:${target.port}`, error: err.message }),
            )
          : resolve(ch),
      ),
    );
    return { sock, jump };
  } catch (e) {
    jump.end();
    throw e;
  }
}

/** Connects to the asset, through the gateway when there is one. */
export async function openSsh(db: Kysely<DB>, lang: Language, target: Hop, gateway?: Hop): Promise<SshLink> {
  if (!gateway) {
    const client = await connectHop(db, lang, target);
    return { client, end: () => client.end() };
  }
  const { sock, jump } = await openTunnel(db, lang, gateway, target);
  try {
    const client = await connectHop(db, lang, target, sock);
    client.once('close', () => jump.end());
    return {
      client,
      end: () => {
        client.end();
        jump.end();
      },
    };
  } catch (e) {
    jump.end();
    throw e;
  }
}
