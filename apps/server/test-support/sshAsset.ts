import { randomUUID } from 'node:crypto';
import { startShellSshd, type SshdOptions, type SshdWithUsers } from './sshd.ts';

/**
 * An SSH host asset with an account on a real sshd, the same for API tests (the app's inject),
 * browser tests (the admin's browser context) and benchmarks: the caller says how it POSTs to the
 * API, so this file imports nothing of the server.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
type Json = any;

/** A POST of a JSON body as the admin: the answer's JSON, or an error on a failure status. */
export type ApiPost = (url: string, body: Record<string, unknown>) => Promise<Json>;

export const HOSTS = '/api/v1/assets/hosts/';
export const ACCOUNTS = '/api/v1/accounts/accounts/';

let n = 0;

/** A Linux host (su allowed) at 127.0.0.1:`port` over SSH, named `host-<n>-<random>` unless `extra` names it. */
export function linuxHost(post: ApiPost, port = 22, extra: Record<string, unknown> = {}): Promise<Json> {
  n += 1;
  return post(HOSTS, {
    name: `host-${n}-${randomUUID().slice(0, 6)}`,
    address: '127.0.0.1',
    platform: 'Linux',
    protocols: [{ name: 'ssh', port }],
    ...extra,
  });
}

export interface SshHostOptions {
  /** The port the host points at, the sshd's by default (e.g. a proxy's in front of it). */
  port?: number;
  /** More host fields (name, nodes, domain, platform...). */
  host?: Record<string, unknown>;
  /** A key account too (`<username>-key`, the sshd's private key). */
  key?: boolean;
}

export interface SshHost {
  host: Json;
  /** The sshd user's password account (named after the user). */
  password: Json;
  /** The key account, with `key` only. */
  key: Json;
}

/** A Linux host on the sshd with its first user's password account, and with `key` a key account. */
export async function sshHost(
  post: ApiPost,
  sshd: Pick<SshdWithUsers, 'port' | 'username' | 'password' | 'privateKey'>,
  opts: SshHostOptions = {},
): Promise<SshHost> {
  const host = await linuxHost(post, opts.port ?? sshd.port, opts.host);
  const password = await post(ACCOUNTS, { asset: host.id, username: sshd.username, secret: sshd.password });
  const key = opts.key
    ? await post(ACCOUNTS, {
        asset: host.id,
        name: `${sshd.username}-key`,
        username: sshd.username,
        secret_type: 'ssh_key',
        secret: sshd.privateKey,
      })
    : undefined;
  return { host, password, key };
}

export interface SshAsset extends SshHost {
  sshd: SshdWithUsers;
  /** Stops the sshd (the host and accounts stay in the database). */
  stop(): void;
}

/** Starts the gateway tests' sshd (`startShellSshd`, given `sshd` options) and makes its host and accounts. */
export async function startSshAsset(
  post: ApiPost,
  opts: SshHostOptions & { sshd?: SshdOptions } = {},
): Promise<SshAsset> {
  const sshd = await startShellSshd(opts.sshd);
  try {
    return { sshd, ...(await sshHost(post, sshd, opts)), stop: () => sshd.stop() };
  } catch (e) {
    sshd.stop();
    throw e;
  }
}
