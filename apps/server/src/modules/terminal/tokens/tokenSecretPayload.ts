import type { FastifyRequest } from 'fastify';
import { toBool } from '../../../platform/db/schema.ts';
import { actionsOut } from '../../perms/actions.ts';
import { tm } from '../gateway/gatewayError.ts';
import { gatewayOf } from '../gateway/sshTarget.ts';
import { CONNECT_METHODS } from './connectMethods.ts';
import type { SpentToken } from './tokenSpend.ts';
import { tokenCommandFilters } from './tokenCommandFilters.ts';
import { assetSecretInfo, assetSpecInfo } from '../../assets/assetCategoryInfo.ts';

/**
 * The contract's `ConnectionTokenSecretSerializer` for a token just spent by a terminal component
 * (`super-connection-token/secret/`): who, which asset (protocols, platform), which account with
 * its secret unsealed (and its `su_from`), the domain, the actions and when the permission ends.
 * Built only after `spendToken` has checked the permission and rules again.
 */
type Json = Record<string, unknown>;

function parse(text: string | null | undefined): Json {
  try {
    const v = JSON.parse(text || '{}') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
  } catch {
    return {};
  }
}

const secretTypeOut = (value: string) => ({ value, label: value });

export async function tokenSecretPayload(req: FastifyRequest, spent: SpentToken): Promise<Json> {
  const { db, lang } = req;
  const box = req.server.deps.secretBox;
  const unseal = (v: string | null | undefined) => (v ? box.decrypt(v) : '');
  const token = await db
    .selectFrom('authentication_connectiontoken')
    .selectAll()
    .where('id', '=', spent.token.id)
    .executeTakeFirstOrThrow();
  const user = await db
    .selectFrom('users_user')
    .select(['id', 'name', 'username', 'email'])
    .where('id', '=', spent.user.id)
    .executeTakeFirstOrThrow();
  const asset = await db
    .selectFrom('assets_asset')
    .selectAll()
    .where('id', '=', spent.asset.id)
    .executeTakeFirstOrThrow();
  const protocols = await db
    .selectFrom('assets_protocol')
    .select(['name', 'port'])
    .where('asset_id', '=', asset.id)
    .execute();
  const platform = await db
    .selectFrom('assets_platform')
    .selectAll()
    .where('id', '=', asset.platform_id)
    .executeTakeFirst();
  const domain = asset.domain_id
    ? await db.selectFrom('assets_domain').select(['id', 'name']).where('id', '=', asset.domain_id).executeTakeFirst()
    : undefined;

  const hop = domain ? await gatewayOf(db, box, domain.id, lang) : undefined;
  const gateway = hop
    ? await db
        .selectFrom('assets_asset')
        .select(['id', 'name', 'address'])
        .where('id', '=', hop.assetId)
        .executeTakeFirst()
    : undefined;
  const permed = spent.account;
  const stored = permed.real
    ? await db.selectFrom('accounts_account').selectAll().where('id', '=', permed.id).executeTakeFirst()
    : undefined;
  const suFrom = stored?.su_from_id
    ? await db.selectFrom('accounts_account').selectAll().where('id', '=', stored.su_from_id).executeTakeFirst()
    : undefined;
  const account = stored
    ? {
        id: stored.id,
        name: stored.name,
        username: stored.username,
        secret_type: secretTypeOut(stored.secret_type),
        secret: unseal(stored.secret) || spent.typed?.password || '',
        su_from: suFrom
          ? {
              name: suFrom.name,
              username: suFrom.username,
              secret_type: secretTypeOut(suFrom.secret_type),
              secret: unseal(suFrom.secret),
            }
          : null,
        privileged: toBool(stored.privileged),
      }
    : {
        id: permed.id,
        name: permed.name,
        username: spent.typed?.username ?? permed.username,
        secret_type: secretTypeOut('password'),
        secret: spent.typed?.password ?? '',
        su_from: null,
        privileged: false,
      };
  const commandFilters = await tokenCommandFilters(db, {
    userId: user.id,
    assetId: asset.id,
    orgId: asset.org_id,
    username: account.username,
    alias: permed.alias,
  });
  const method = CONNECT_METHODS.find((m) => m.value === token.connect_method);
  return {
    id: token.id,
    value: token.value,
    user,
    asset: {
      id: asset.id,
      name: asset.name,
      address: asset.address,
      protocols,
      category: asset.category,
      type: asset.type,
      org_id: asset.org_id,
      info: parse(asset.custom_info),
      secret_info: assetSecretInfo(asset),
      spec_info: assetSpecInfo(asset),
    },
    account,
    platform: platform
      ? {
          id: platform.id,
          name: platform.name,
          category: platform.category,
          type: platform.type,
          charset: platform.charset,
          domain_enabled: toBool(platform.domain_enabled),
          su_enabled: toBool(platform.su_enabled),
          su_method: platform.su_method,
          internal: toBool(platform.internal),
          comment: platform.comment,
        }
      : null,
    command_filter_acls: commandFilters,
    protocol: token.protocol,
    domain: domain ?? null,
    gateway:
      hop && gateway
        ? {
            ...gateway,
            protocols: [{ name: 'ssh', port: hop.port }],
            account: {
              name: hop.accountName ?? hop.credentials.username,
              username: hop.credentials.username,
              secret_type: secretTypeOut(hop.credentials.privateKey ? 'ssh_key' : 'password'),
              secret: hop.credentials.privateKey ?? hop.credentials.password ?? '',
            },
          }
        : null,
    actions: actionsOut(permed.actions, lang),
    expire_at: Math.floor(Date.parse(permed.date_expired) / 1000),
    from_ticket: token.from_ticket_id ?? null,
    connect_method: method
      ? { label: tm(lang, method.label), value: method.value, type: method.type, component: method.component }
      : null,
    connect_options: parse(token.connect_options),
  };
}
