import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SYSTEM_ORG_ID } from '@gatehouse/contract';
import { recordOperation } from '../../resource/audit.ts';
import { findVisible, listResponse } from '../../resource/routes.ts';
import { primitiveOut, serializeOne } from '../../resource/serialize.ts';
import type { FieldDef, ResourceDef, Row } from '../../resource/types.ts';
import { requireConfirm } from '../authentication/confirm.ts';
import { activeMfaBackends, loadMfaUser, mfaEnabled } from '../authentication/mfa/mfaUser.ts';
import { acm } from './accountMessages.ts';
import { SECRET_TYPE_CHOICES } from './accountFields.ts';
import { accountResource } from './accountResource.ts';
import { templateResource } from './templateResource.ts';
import { unseal } from './secrets.ts';
import { pick } from '../../resource/describe.ts';

/**
 * Reading secrets (`account-secrets/`, `account-template-secrets/`):
 * the secret permission, then a fresh re-verification (MFA when the caller has it, else the
 * password), then an operate-log entry "view" naming who, what and from where (the log's
 * remote address). The answer is the ordinary serialisation with `secret` and `passphrase`
 * readable; the sealed values never leave the server.
 */

/** MFA for callers who have it; the password for the others (they could never confirm at MFA level). */
export async function requireSecretConfirm(req: FastifyRequest): Promise<void> {
  const user = await loadMfaUser(req, req.user!.id);
  const mfa = user && (await mfaEnabled(req, user)) && (await activeMfaBackends(req, user)).length > 0;
  await requireConfirm(req, mfa ? 'mfa' : 'password');
}

/** The same resource with `secret` and `passphrase` readable (decrypted per row as it is written out). */
export function withReadableSecrets(def: ResourceDef): ResourceDef {
  const readable = (column: string, base: FieldDef): FieldDef => ({
    ...base,
    writeOnly: false,
    parse: undefined,
    read: (row, ctx) => unseal(ctx.req, row[column] as string | null),
  });
  return {
    ...def,
    fields: {
      ...def.fields,
      secret: readable('secret', def.fields.secret!),
      passphrase: readable('passphrase', def.fields.passphrase!),
    },
  };
}

async function logView(req: FastifyRequest, def: ResourceDef, id: string, name: string, orgId: string | undefined) {
  await recordOperation(req.db, req, { action: 'view', def, resourceId: id, resourceName: name, orgId, diff: [] });
  req.log.info({ model: def.model, id: id || undefined, user: req.user?.username, ip: req.ip }, 'secret viewed');
}

function registerSecretReads(app: FastifyInstance, base: ResourceDef, url: string, perm: string): void {
  const def = withReadableSecrets(base);
  const guard = { config: { perm, describe: def } };
  app.get(url, guard, async (req: FastifyRequest, reply: FastifyReply) => {
    await requireSecretConfirm(req);
    // One entry per list or export, naming the query that chose the accounts.
    const query = new URLSearchParams(req.query as Record<string, string>).toString() || '*';
    await logView(req, def, '', acm(req.lang, 'secret_view_list', { query }).slice(0, 256), req.org.id);
    return listResponse(def, req, reply);
  });
  app.get<{ Params: { id: string } }>(`${url}:id/`, guard, async (req) => {
    await requireSecretConfirm(req);
    const ctx = { req, db: req.db };
    const row = await findVisible(def, ctx, req.params.id);
    await logView(req, def, row.id, nameWithAsset(row, await assetName(req, row)), row.org_id ?? SYSTEM_ORG_ID);
    return serializeOne(def, ctx, row);
  });
}

async function assetName(req: FastifyRequest, row: Row): Promise<string | undefined> {
  if (!row.asset_id) return undefined;
  const a = await req.db.selectFrom('assets_asset').select('name').where('id', '=', row.asset_id).executeTakeFirst();
  return a?.name;
}

const nameWithAsset = (row: Row, asset: string | undefined) =>
  asset ? `${row.name}(${row.username})@${asset}` : `${row.name}(${row.username})`;

export function registerSecretRoutes(app: FastifyInstance): void {
  registerSecretReads(app, accountResource, '/api/v1/accounts/account-secrets/', 'accounts.view_accountsecret');
  registerSecretReads(
    app,
    templateResource,
    '/api/v1/accounts/account-template-secrets/',
    'accounts.view_accounttemplatesecret',
  );
  // Former versions of an account's secret, newest first (the current version is the account itself).
  app.get<{ Params: { id: string } }>(
    '/api/v1/accounts/account-secrets/:id/histories/',
    {
      config: {
        perm: 'accounts.view_accountsecret',
        describe: pick(withReadableSecrets(accountResource), ['id', 'secret', 'passphrase', 'secret_type', 'version'], {
          history_date: 'datetime',
          history_user: 'string',
        }),
      },
    },
    async (req) => {
      await requireSecretConfirm(req);
      const ctx = { req, db: req.db };
      const account = await findVisible(accountResource, ctx, req.params.id);
      const rows = await req.db
        .selectFrom('accounts_accounthistory')
        .selectAll()
        .where('account_id', '=', account.id)
        .where('version', '<', Number(account.version))
        .orderBy('version', 'desc')
        .execute();
      await logView(
        req,
        accountResource,
        account.id,
        nameWithAsset(account, await assetName(req, account)),
        account.org_id,
      );
      const typeField: FieldDef = {
        type: 'labeled_choice',
        label: accountResource.label,
        choices: SECRET_TYPE_CHOICES,
      };
      return rows.map((h) => ({
        id: h.id,
        secret: unseal(req, h.secret),
        passphrase: unseal(req, h.passphrase),
        secret_type: primitiveOut(typeField, h.secret_type, ctx),
        version: Number(h.version),
        history_date: primitiveOut({ type: 'datetime', label: accountResource.label }, h.history_date, ctx),
        history_user: h.history_user,
      }));
    },
  );
}
