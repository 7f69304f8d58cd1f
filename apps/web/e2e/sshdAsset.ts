import type { BrowserContext } from 'playwright-core';
import { startShellSshd, type SshdWithUsers } from '@gatehouse/server/test-support/sshd.ts';
import { apiCall } from './browser.ts';

/**
 * A real OpenSSH asset for browser tests (the gateway tests' sshd: a bash login shell whose prompt
 * is `gh$ `): the sshd on loopback, a Linux host pointing at it and a password account, made
 * through the API by the admin's browser context in `org` (`extra`: more host fields, e.g. nodes).
 */
export interface SshdAsset {
  sshd: SshdWithUsers;
  host: { id: string; name: string };
  account: { id: string; name: string; username: string };
  stop(): void;
}

export async function startSshdAsset(
  admin: BrowserContext,
  name: string,
  org: string,
  extra: Record<string, unknown> = {},
): Promise<SshdAsset> {
  const sshd = await startShellSshd();
  const headers = { 'X-JMS-ORG': org };
  const host = await apiCall<{ id: string; name: string }>(
    admin,
    'POST',
    '/api/v1/assets/hosts/',
    { name, address: '127.0.0.1', platform: 'Linux', protocols: [{ name: 'ssh', port: sshd.port }], ...extra },
    headers,
  );
  const account = await apiCall<{ id: string; name: string; username: string }>(
    admin,
    'POST',
    '/api/v1/accounts/accounts/',
    { asset: host.id, username: sshd.username, secret: sshd.password },
    headers,
  );
  return { sshd, host, account, stop: () => sshd.stop() };
}
