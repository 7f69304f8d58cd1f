import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import type { SecretBox } from '../../platform/crypto/secretBox.ts';
import { CloudError, type ProviderContext } from './providers/provider.ts';
import { providerOf } from './providers/index.ts';

/** A cloud account's secret attributes live sealed in `cloud_account.secret` (JSON inside the secret box). */
export const sealSecrets = (box: SecretBox, secrets: Record<string, string>): string =>
  Object.keys(secrets).length ? box.encrypt(JSON.stringify(secrets)) : '';

export function openSecrets(box: SecretBox, sealed: string): Record<string, string> {
  if (!sealed) return {};
  return JSON.parse(box.decrypt(sealed)) as Record<string, string>;
}

const parseObject = (s: string): Record<string, unknown> => {
  try {
    const v = JSON.parse(s) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** The provider of an account and what its calls need; CloudError when the account is gone. */
export async function accountContext(db: Kysely<DB>, box: SecretBox, accountId: string, signal: AbortSignal) {
  const account = await db.selectFrom('cloud_account').selectAll().where('id', '=', accountId).executeTakeFirst();
  if (!account) throw new CloudError('account_missing');
  const provider = providerOf(account.provider);
  if (!provider) throw new CloudError('unknown_provider', { provider: account.provider });
  const ctx: ProviderContext = { attrs: parseObject(account.attrs), secrets: openSecrets(box, account.secret), signal };
  return { account, provider, ctx };
}
