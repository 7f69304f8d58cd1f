import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../../http/errors.ts';
import { connectionTokenOut } from '../../authentication/profile/connectionTokens.ts';
import { tm } from '../gateway/gatewayError.ts';
import { createConnectionToken, readTokenRequest } from './connectionTokenCreate.ts';
import { clientEndpoint } from '../storage/endpoints.ts';
import { shape } from '../../../resource/describe.ts';
import { dbCommandLine, dbProxyPort } from '../database/dbCommandLine.ts';

/**
 * The gateway's half of `/api/v1/authentication/connection-token/` (the profile module lists,
 * expires and switches reuse): create a token for the caller, exchange one of the caller's own
 * live tokens for a fresh one (checked again), and the native client's `jms://` launch URL.
 */
const BASE = '/api/v1/authentication/connection-token/';
const perm = 'authentication.add_connectiontoken';

async function withOrgName(req: FastifyRequest, id: string) {
  return req.db
    .selectFrom('authentication_connectiontoken as t')
    .leftJoin('orgs_organization as o', 'o.id', 't.org_id')
    .selectAll('t')
    .select('o.name as org_name')
    .where('t.id', '=', id)
    .executeTakeFirstOrThrow();
}

/** One of the caller's own live tokens, else 404 (someone else's token looks like none). */
async function ownLive(req: FastifyRequest, id: unknown) {
  const row =
    typeof id === 'string' && id
      ? await req.db
          .selectFrom('authentication_connectiontoken as t')
          .leftJoin('orgs_organization as o', 'o.id', 't.org_id')
          .selectAll('t')
          .select('o.name as org_name')
          .where('t.id', '=', id)
          .where('t.user_id', '=', req.user!.id)
          .where('t.date_expired', '>', new Date().toISOString())
          .executeTakeFirst()
          .catch(() => undefined)
      : undefined;
  if (!row) throw new ApiError(404, { detail: tm(req.lang, 'token_not_found'), code: 'not_found' });
  return row;
}

export function registerConnectionTokenCreateRoutes(app: FastifyInstance): void {
  app.post(BASE, { config: { perm } }, async (req, reply) => {
    const row = await createConnectionToken(req, readTokenRequest(req.lang, req.body));
    return reply.code(201).send(connectionTokenOut(await withOrgName(req, row.id)));
  });

  app.post(`${BASE}exchange/`, { config: { perm } }, async (req, reply) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const old = await ownLive(req, body.id);
    const row = await createConnectionToken(req, {
      assetId: old.asset_id ?? '',
      account: old.account,
      protocol: old.protocol,
      connectMethod: old.connect_method,
      inputUsername: old.input_username,
      inputSecret: old.input_secret ? req.server.deps.secretBox.decrypt(old.input_secret) : '',
      connectOptions: JSON.parse(old.connect_options || '{}') as Record<string, unknown>,
    });
    return reply.code(201).send(connectionTokenOut(await withOrgName(req, row.id)));
  });

  const clientUrl = async (req: FastifyRequest) => {
    const t = await ownLive(req, (req.params as { id: string }).id);
    const { host, port } = await clientEndpoint(req, t.protocol);
    // A database token: the client's command line for the proxy (the token's value is its password).
    const database = dbProxyPort(req.server.deps.config, t.protocol)
      ? await req.db.selectFrom('assets_asset').select('db_name').where('id', '=', t.asset_id!).executeTakeFirst()
      : undefined;
    const command = database
      ? dbCommandLine({ protocol: t.protocol, host, port, tokenId: t.id, database: database.db_name ?? '' })
      : '';
    const data = {
      version: 2,
      id: t.id,
      value: t.value,
      name: t.asset_display,
      protocol: t.protocol,
      token: { id: t.id, value: t.value },
      file: {},
      command,
      endpoint: { host, port },
    };
    return { url: `jms://${Buffer.from(JSON.stringify(data)).toString('base64')}` };
  };
  app.get(
    `${BASE}:id/client-url/`,
    { config: { perm, describe: shape('connection_token', { url: 'string' }) } },
    clientUrl,
  );
  app.post(`${BASE}:id/client-url/`, { config: { perm } }, clientUrl);
}
