import type { FastifyInstance } from 'fastify';
import type { Language } from '@gatehouse/contract';
import { GatewayError } from '../gateway/gatewayError.ts';
import { loginAssetVerdict, rejectedConnectMethods } from '../tokens/tokenAcls.ts';
import { loginAssetReviewer, type ReviewContext, type ReviewTicket } from '../tokens/loginAssetReview.ts';
import { sm } from './sshMessages.ts';

/**
 * The rules a native SSH or SFTP login to an asset meets, as a connection token does
 * (`tokens/connectionTokenCreate.ts`): connect-method rules that reject `ssh_client` (or the login's own method) for the user,
 * then the asset org's login-asset rules. Reject refuses (NativeAccessDenied, a GatewayError in the
 * user's language). Review lets the login through when a login-asset ticket for it was approved
 * recently (the tickets module's window, `tickets/loginAssetConfirm.ts`); else it opens (or reuses)
 * the pending ticket and throws NativeReviewPending with it: the menu and the one-command login
 * wait on it (`reviewWait.ts`), exec and SFTP refuse with its link. Without the tickets module a
 * review rule refuses.
 */
export class NativeAccessDenied extends GatewayError {}

/** A review rule holds the login: the ticket to follow; the message says so, with the link. */
export class NativeReviewPending extends Error {
  constructor(
    readonly ticket: ReviewTicket & { url: string },
    readonly ctx: ReviewContext,
  ) {
    super(sm(ctx.lang, 'ssh_review_refused', { url: ticket.url, reviewers: ticket.reviewers.join(', ') }).trimEnd());
  }
}

export interface NativeLogin {
  userId: string;
  assetId: string;
  username: string;
  alias: string;
  ip: string;
  lang: Language;
  /** The connect method the login uses (`ssh_client` unless said: `db_client` for the database proxies). */
  method?: string;
}

/** Resolves with the approved ticket's id when a review rule let the login through, else undefined. */
export async function checkNativeAccess(app: FastifyInstance, s: NativeLogin): Promise<string | undefined> {
  const { db } = app.deps.database;
  const { settings } = app.deps;
  const method = s.method ?? 'ssh_client';
  const rejected = await rejectedConnectMethods(db, settings, { userId: s.userId, ip: s.ip }, [method]);
  if (rejected.has(method)) throw new NativeAccessDenied('token_connect_method_rejected', s.lang);
  const asset = await db.selectFrom('assets_asset').select('org_id').where('id', '=', s.assetId).executeTakeFirst();
  if (!asset) throw new NativeAccessDenied('token_acl_reject', s.lang);
  const verdict = await loginAssetVerdict(db, settings, {
    userId: s.userId,
    assetId: s.assetId,
    orgId: asset.org_id,
    username: s.username,
    alias: s.alias,
    ip: s.ip,
  });
  if (verdict?.action === 'reject') throw new NativeAccessDenied('token_acl_reject', s.lang);
  if (verdict?.action !== 'review') return undefined;
  const port = loginAssetReviewer();
  if (!port) throw new NativeAccessDenied('token_acl_review', s.lang);
  const ctx: ReviewContext = { userId: s.userId, ip: s.ip, lang: s.lang };
  const situation = {
    userId: s.userId,
    assetId: s.assetId,
    orgId: asset.org_id,
    account: s.username,
    ruleId: verdict.ruleId,
    reviewers: verdict.reviewers,
  };
  const approved = await port.approved(ctx, situation);
  if (approved) return approved;
  const ticket = await port.open(ctx, situation);
  const site = String((await settings.get('SITE_URL')) ?? '').replace(/\/+$/, '');
  throw new NativeReviewPending({ ...ticket, url: `${site}${ticket.ticket_detail_url}` }, ctx);
}
