import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../../http/errors.ts';
import { toBool } from '../../../platform/db/schema.ts';
import { GatewayError, tm, type TerminalMessageKey } from '../gateway/gatewayError.ts';
import { recheckStoredToken } from '../tokens/connectionTokenCreate.ts';
import { listContainers, listNamespaces, listPods } from './k8sClient.ts';
import { resolveK8sTarget } from './k8sTarget.ts';
import { treeNodes } from '../../../resource/describe.ts';

/**
 * `GET /api/v1/perms/users/self/nodes/children-with-k8s/tree/?token=<connection token>&key=`: a
 * Kubernetes asset's namespaces, pods and containers as an async tree for the web terminal, read
 * from the cluster with the token's account. The token is the caller's own live k8s token (not
 * spent here: the page opens containers with tokens exchanged from it, and each call renews it),
 * its permission and the login rules checked again. Node ids are query strings as the original's: `asset_id=<id>` (the
 * asset, no key), `namespace=<ns>`, `namespace=<ns>&pod=<pod>`, `...&container=<c>` (a leaf); `key`
 * is the id of the node to expand.
 */
export const K8S_TREE_PATH = '/api/v1/perms/users/self/nodes/children-with-k8s/tree/';

/** Kubernetes object names (DNS-1123 labels and subdomains). */
const NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

const bad = (req: FastifyRequest, key: TerminalMessageKey, status = 400) =>
  new ApiError(status, { detail: tm(req.lang, key), code: key });

function node(id: Record<string, string>, pId: string, name: string, identity: string, leaf = false, open = false) {
  return {
    id: new URLSearchParams(id).toString(),
    name,
    title: name,
    pId,
    isParent: !leaf,
    open,
    iconSkin: identity === 'asset' ? 'k8s' : identity,
    meta: { type: 'k8s', data: { category: 'container', type: 'k8s', identity, is_container: leaf, ...id } },
  };
}

async function liveToken(req: FastifyRequest) {
  const q = req.query as Record<string, unknown>;
  const id = typeof q.token === 'string' ? q.token.trim() : '';
  if (!id) throw bad(req, 'k8s_token_required');
  const row = await req.db
    .selectFrom('authentication_connectiontoken')
    .selectAll()
    .where('id', '=', id)
    .where('date_expired', '>', new Date().toISOString())
    .executeTakeFirst()
    .catch(() => undefined);
  const user = req.user!;
  if (!row?.asset_id || row.user_id !== user.id || !toBool(row.is_active) || row.protocol !== 'k8s')
    throw bad(req, 'k8s_token_invalid', 403);
  const checked = await recheckStoredToken(req, user, { ...row, asset_id: row.asset_id });
  await renew(req, row, checked.account.date_expired);
  return { assetId: row.asset_id, checked };
}

/**
 * Browsing keeps the token alive, as the original's tree renews it: its end moves to one more
 * one-time lifetime from now (CONNECTION_TOKEN_ONETIME_EXPIRATION), never past the permission's
 * end, never earlier.
 */
async function renew(req: FastifyRequest, row: { id: string; date_expired: string }, permEnd: string) {
  const ttl = Number(await req.server.deps.settings.get('CONNECTION_TOKEN_ONETIME_EXPIRATION')) || 300;
  const until = Math.min(Date.now() + ttl * 1000, Date.parse(permEnd));
  if (!(until > Date.parse(row.date_expired))) return;
  const now = new Date().toISOString();
  await req.db
    .updateTable('authentication_connectiontoken')
    .set({ date_expired: new Date(until).toISOString(), date_updated: now })
    .where('id', '=', row.id)
    .where('date_expired', '>', now)
    .execute();
}

async function children(req: FastifyRequest) {
  const { assetId, checked } = await liveToken(req);
  const q = req.query as Record<string, unknown>;
  const key = typeof q.key === 'string' ? q.key : '';
  const asset = { asset_id: assetId };
  if (!key) return [node(asset, '', checked.asset.name, 'asset', false, true)];
  const k = new URLSearchParams(key);
  const ns = k.get('namespace') ?? '';
  const pod = k.get('pod') ?? '';
  if (
    (!ns && k.get('asset_id') !== assetId) ||
    (ns && !NAME.test(ns)) ||
    (pod && !NAME.test(pod)) ||
    k.has('container')
  )
    throw bad(req, 'k8s_key_invalid');
  // Virtual accounts (@INPUT, @USER) type a password; a cluster needs the stored token.
  if (!checked.account.real) throw bad(req, 'k8s_token_invalid', 403);
  const { db, lang } = req;
  const t = await resolveK8sTarget(db, req.server.deps.secretBox, lang, assetId, checked.account.id);
  const parentId = (id: Record<string, string>) => new URLSearchParams(id).toString();
  if (!ns)
    return (await listNamespaces(db, lang, t)).map((n) => node({ namespace: n }, parentId(asset), n, 'namespace'));
  if (!pod)
    return (await listPods(db, lang, t, ns)).map((p) =>
      node({ namespace: ns, pod: p }, parentId({ namespace: ns }), p, 'pod'),
    );
  return (await listContainers(db, lang, t, ns, pod)).map((c) =>
    node({ namespace: ns, pod, container: c }, parentId({ namespace: ns, pod }), c, 'container', true),
  );
}

export function registerK8sTreeRoutes(app: FastifyInstance): void {
  app.get(K8S_TREE_PATH, { config: { perm: 'perms.view_myassets', describe: treeNodes } }, async (req) => {
    try {
      return await children(req);
    } catch (e) {
      // The cluster refused or could not be reached: the user's mistake or the asset's, not ours.
      if (e instanceof GatewayError) throw new ApiError(400, { detail: e.message, code: e.code });
      throw e;
    }
  });
}
