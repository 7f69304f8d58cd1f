import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { settingFields } from '@gatehouse/contract';
import { ApiError } from '../../../http/errors.ts';
import { decodeSecretField } from '../../../resource/secretFields.ts';
import { validateCategory } from '../../settings/settingValidate.ts';
import { acm as am } from '../accountMessages.ts';
import { checkVault, VaultError, writeSecret, type VaultConfig } from './vaultClient.ts';

/**
 * Features › Vault tools (`settings.change_vault`): `POST /api/v1/settings/vault/testing/` checks
 * the form's values (unsaved ones included; an empty token keeps the stored one) against Vault;
 * `POST /api/v1/settings/vault/sync/` writes every account's secret to the KV v2 engine at
 * `accounts/<org id>/<account id>` (secret, type, username, asset, version), a few at a time,
 * answering how many went and which failed.
 */
const PERM = { perm: 'settings.change_vault' };
const PARALLEL = 8;

async function configFrom(req: FastifyRequest, over: Record<string, unknown> = {}): Promise<VaultConfig> {
  const s = req.server.deps.settings;
  const v = async (n: string) => (n in over ? over[n] : await s.valueOf(n));
  const token =
    typeof over.VAULT_HCP_TOKEN === 'string' && over.VAULT_HCP_TOKEN
      ? over.VAULT_HCP_TOKEN
      : await s.secret('VAULT_HCP_TOKEN');
  return {
    host: String((await v('VAULT_HCP_HOST')) ?? ''),
    token,
    mount: String((await v('VAULT_HCP_MOUNT_POINT')) ?? ''),
  };
}

async function testing(req: FastifyRequest, reply: FastifyReply) {
  const body = req.body ?? {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, {});
  const form = { ...(body as Record<string, unknown>) };
  if ('VAULT_HCP_TOKEN' in form)
    form.VAULT_HCP_TOKEN = await decodeSecretField(req, form.VAULT_HCP_TOKEN, 'VAULT_HCP_TOKEN');
  const checked = validateCategory(settingFields('vault'), form, true, req.lang);
  if (!checked.ok) throw new ApiError(400, checked.errors);
  const cfg = await configFrom(req, checked.values);
  if (!cfg.host) throw new ApiError(400, { VAULT_HCP_HOST: [am(req.lang, 'vault_no_host')] });
  try {
    await checkVault(cfg);
  } catch (e) {
    return reply.code(400).send({ msg: am(req.lang, 'vault_failed', { error: (e as Error).message }) });
  }
  return { msg: am(req.lang, 'vault_ok') };
}

async function sync(req: FastifyRequest, reply: FastifyReply) {
  const { settings, secretBox } = req.server.deps;
  if (!(await settings.valueOf('VAULT_ENABLED'))) return reply.code(400).send({ msg: am(req.lang, 'vault_disabled') });
  const cfg = await configFrom(req);
  try {
    await checkVault(cfg);
  } catch (e) {
    return reply.code(400).send({ msg: am(req.lang, 'vault_failed', { error: (e as Error).message }) });
  }
  const rows = await req.db
    .selectFrom('accounts_account')
    .select(['id', 'org_id', 'username', 'asset_id', 'secret_type', 'secret', 'version'])
    .where('secret', 'is not', null)
    .execute();
  let synced = 0;
  const failed: { id: string; error: string }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < rows.length) {
      const r = rows[next++]!;
      try {
        await writeSecret(cfg, `accounts/${r.org_id}/${r.id}`, {
          secret: secretBox.decrypt(r.secret!),
          secret_type: r.secret_type,
          username: r.username,
          asset_id: r.asset_id,
          version: String(r.version),
        });
        synced += 1;
      } catch (e) {
        failed.push({ id: r.id, error: e instanceof VaultError ? e.message : 'not sent' });
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return { msg: am(req.lang, 'vault_synced', { count: synced, failed: failed.length }), synced, failed };
}

export function registerVaultRoutes(app: FastifyInstance): void {
  app.post('/api/v1/settings/vault/testing/', { config: PERM }, testing);
  app.post('/api/v1/settings/vault/sync/', { config: PERM }, sync);
}
