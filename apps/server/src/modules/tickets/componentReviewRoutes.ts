import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { loginAssetReviewer, reviewContextOf } from '../terminal/tokens/loginAssetReview.ts';
import { loginAssetVerdict } from '../terminal/tokens/tokenAcls.ts';
import { openCommandTicket } from './commandConfirm.ts';
import { reviewInfo } from './loginAssetConfirm.ts';
import { km } from './ticketMessages.ts';

/**
 * The components' check of a login under a login-asset rule (`acls/login-asset/check/`,
 * `tickets.add_superticket`, the SystemComponent role): `{user_id, asset_id, account_username}` →
 * `{need_review: false}`, or `need_review: true` with the ticket to follow, opened (or the pending
 * one reused) through the same port as the connection token's `?create_ticket=1`
 * (`loginAssetConfirm.ts`). An approval still in its window answers no review.
 */
export function registerComponentReviewRoutes(app: FastifyInstance): void {
  app.post('/api/v1/acls/login-asset/check/', { config: { perm: 'tickets.add_superticket' } }, async (req) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const errors: Record<string, string[]> = {};
    for (const k of ['user_id', 'asset_id', 'account_username'])
      if (typeof b[k] !== 'string' || !b[k]) errors[k] = [km(req.lang, 'field_required')];
    if (Object.keys(errors).length) throw new ApiError(400, errors);
    const user = await req.db
      .selectFrom('users_user')
      .select('id')
      .where('id', '=', String(b.user_id))
      .executeTakeFirst()
      .catch(() => undefined);
    const asset = await req.db
      .selectFrom('assets_asset')
      .select(['id', 'org_id'])
      .where('id', '=', String(b.asset_id))
      .executeTakeFirst()
      .catch(() => undefined);
    if (!user) errors.user_id = [km(req.lang, 'object_not_found')];
    if (!asset) errors.asset_id = [km(req.lang, 'object_not_found')];
    if (!user || !asset) throw new ApiError(400, errors);
    const account = String(b.account_username).slice(0, 128);
    const verdict = await loginAssetVerdict(req.db, app.deps.settings, {
      userId: user.id,
      assetId: asset.id,
      orgId: asset.org_id,
      username: account,
      alias: '',
      ip: req.ip,
    });
    const port = loginAssetReviewer();
    if (verdict?.action !== 'review' || !port) return { need_review: false };
    const s = {
      userId: user.id,
      assetId: asset.id,
      orgId: asset.org_id,
      account,
      ruleId: verdict.ruleId,
      reviewers: verdict.reviewers,
    };
    const ctx = reviewContextOf(req, user.id);
    if (await port.approved(ctx, s)) return { need_review: false };
    return { need_review: true, ...(await port.open(ctx, s)) };
  });

  // A component's command held by a `review` command filter rule (`{session_id, cmd_filter_acl_id,
  // run_command}`) becomes a command-confirm ticket, as the built-in gateway's held commands do
  // (commandConfirm.ts): the session and the rule must exist and belong to the same org, and the
  // rule must be a review rule; the applicant is the session's user.
  app.post(
    '/api/v1/acls/command-filter-acls/command-review/',
    { config: { perm: 'tickets.add_superticket' } },
    async (req) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      const errors: Record<string, string[]> = {};
      for (const k of ['session_id', 'cmd_filter_acl_id', 'run_command'])
        if (typeof b[k] !== 'string' || !b[k]) errors[k] = [km(req.lang, 'field_required')];
      if (Object.keys(errors).length) throw new ApiError(400, errors);
      const session = await req.db
        .selectFrom('terminal_session')
        .select(['id', 'user_id', 'org_id', 'is_finished'])
        .where('id', '=', String(b.session_id))
        .executeTakeFirst()
        .catch(() => undefined);
      const rule = await req.db
        .selectFrom('acls_commandfilteracl')
        .select(['id', 'org_id', 'action'])
        .where('id', '=', String(b.cmd_filter_acl_id))
        .executeTakeFirst()
        .catch(() => undefined);
      if (!session) errors.session_id = [km(req.lang, 'object_not_found')];
      if (!rule || (session && rule.org_id !== session.org_id) || rule.action !== 'review')
        errors.cmd_filter_acl_id = [km(req.lang, 'object_not_found')];
      if (!session || Object.keys(errors).length) throw new ApiError(400, errors);
      const reviewers = (
        await req.db
          .selectFrom('acls_commandfilteracl_reviewers')
          .select('user_id')
          .where('acl_id', '=', rule!.id)
          .execute()
      ).map((r) => r.user_id);
      const { ticket, assignees } = await openCommandTicket(app, {
        sessionId: session.id,
        ruleId: rule!.id,
        command: String(b.run_command).slice(0, 4096),
        orgId: session.org_id,
        userId: session.user_id,
        reviewers,
      });
      return reviewInfo(app, ticket, assignees);
    },
  );
}
