import type { BrowserContext } from 'playwright-core';
import { startSshAsset, type SshAsset } from '@gatehouse/server/test-support/sshAsset.ts';
import { apiCall } from './browser.ts';

/**
 * A real OpenSSH asset for browser tests (the gateway tests' sshd: a bash login shell whose prompt
 * is `gh$ `): the sshd on loopback, a Linux host named `name` pointing at it and a password account
 * (`account`), made through the API by the admin's browser context, in `org` if given (`extra`: more
 * host fields, e.g. nodes).
 */
export interface SshdAsset {
  sshd: SshAsset['sshd'];
  host: { id: string; name: string };
  account: { id: string; name: string; username: string };
  stop(): void;
}

export async function startSshdAsset(
  admin: BrowserContext,
  name: string,
  org?: string,
  extra: Record<string, unknown> = {},
): Promise<SshdAsset> {
  const headers: Record<string, string> = org ? { 'X-JMS-ORG': org } : {};
  const asset = await startSshAsset((url, body) => apiCall(admin, 'POST', url, body, headers), {
    host: { name, ...extra },
  });
  return { sshd: asset.sshd, host: asset.host, account: asset.password, stop: asset.stop };
}
