import type { FastifyInstance } from 'fastify';
import {
  loginAssetReviewer,
  setLoginAssetReviewer,
  type LoginAssetReviewPort,
  type LoginAssetSituation,
  type ReviewContext,
  type ReviewTicket,
} from '../terminal/tokens/loginAssetReview.ts';
import type { OperationActor } from '../../resource/audit.ts';
import { levelsFor } from './assignees.ts';
import { actOn } from './ticketActions.ts';
import { notifyAssignees, ticketUrl } from './notify.ts';
import { auditTicket } from './ticketAudit.ts';
import { km } from './ticketMessages.ts';
import { createTicket, type TicketRow } from './ticketStore.ts';
import { waitForDecision } from './waitForDecision.ts';

/**
 * Login-asset review (terminal/tokens/loginAssetReview.ts): a connection asked with
 * `?create_ticket=1` under a `review` login-asset rule opens a login-asset ticket (or reuses the
 * pending one of the same user, asset and account) assigned to the rule's recipients, and answers
 * how to follow it (`super-tickets/<id>/status/`). An approval lets that user connect to that
 * asset with that account for twice the one-time token lifetime (creating the token, then
 * spending it); after that a new connection asks again. The session such a connection opens is
 * recorded on the ticket (`apply_from_session`, the latest one), for its reviewers to watch.
 * The native SSH server waits on the ticket (polled as a held command's, `waitForDecision.ts`) and
 * gives it up for the user (closed by the applicant, as the login page's DELETE does).
 */
const TYPE = 'login_asset_confirm';
const statusUrl = (id: string) => `/api/v1/tickets/super-tickets/${id}/status/`;
type Meta = { login_asset_id?: string; login_account?: string };

async function ticketsOf(app: FastifyInstance, s: LoginAssetSituation, state: string): Promise<TicketRow[]> {
  const rows = await app.deps.database.db
    .selectFrom('tickets_ticket')
    .selectAll()
    .where('type', '=', TYPE)
    .where('applicant_id', '=', s.userId)
    .where('state', '=', state)
    .orderBy('date_updated', 'desc')
    .limit(50)
    .execute();
  return rows.filter((r) => {
    const m = JSON.parse(r.meta) as Meta;
    return m.login_asset_id === s.assetId && m.login_account === s.account;
  });
}

/** How a component follows a review ticket: its status URL (GET to poll, DELETE to give up), page and reviewers. */
export async function reviewInfo(app: FastifyInstance, ticket: TicketRow, assignees: string[]): Promise<ReviewTicket> {
  const names = await app.deps.database.db
    .selectFrom('users_user')
    .select(['name', 'username'])
    .where('id', 'in', assignees.length ? assignees : [''])
    .execute();
  return {
    ticket_id: ticket.id,
    check_review_status: { method: 'GET', url: statusUrl(ticket.id) },
    close_review: { method: 'DELETE', url: statusUrl(ticket.id) },
    ticket_detail_url: ticketUrl(ticket),
    reviewers: names.map((n) => `${n.name}(${n.username})`),
  };
}

/** The applicant as the operate log names them, from wherever they asked (web or native SSH). */
async function applicantOf(app: FastifyInstance, ctx: ReviewContext): Promise<OperationActor> {
  const user = await app.deps.database.db
    .selectFrom('users_user')
    .select(['name', 'username'])
    .where('id', '=', ctx.userId)
    .executeTakeFirstOrThrow();
  return { display: `${user.name}(${user.username})`, username: user.username, ip: ctx.ip };
}

export function registerLoginAssetConfirm(app: FastifyInstance): void {
  const db = app.deps.database.db;
  const port: LoginAssetReviewPort = {
    async approved(_req, s) {
      const ttl = Number(await app.deps.settings.get('CONNECTION_TOKEN_ONETIME_EXPIRATION')) || 300;
      const since = new Date(Date.now() - 2 * ttl * 1000).toISOString();
      return (await ticketsOf(app, s, 'approved')).find((t) => t.date_updated >= since)?.id;
    },
    async open(ctx, s) {
      let ticket = (await ticketsOf(app, s, 'pending'))[0];
      const levels = await levelsFor(db, s.orgId, TYPE, s.reviewers);
      if (!ticket) {
        const applicant = await applicantOf(app, ctx);
        const asset = await db
          .selectFrom('assets_asset')
          .select(['name', 'address'])
          .where('id', '=', s.assetId)
          .executeTakeFirstOrThrow();
        const assetDisplay = `${asset.name}(${asset.address})`;
        ticket = await createTicket(db, {
          type: TYPE,
          title: km('en', 'title_login_asset_confirm', { user: applicant.display, asset: assetDisplay }),
          orgId: s.orgId,
          applicantId: s.userId,
          createdBy: applicant.username,
          meta: {
            apply_login_user: applicant.display,
            apply_login_asset: assetDisplay,
            apply_login_account: s.account,
            login_asset_id: s.assetId,
            login_account: s.account,
            apply_from_acl: s.ruleId,
          },
          levels,
        });
        await notifyAssignees(app, ticket, levels[0] ?? []);
        await auditTicket(db, applicant, ticket, 'create');
      }
      return reviewInfo(app, ticket, levels[0] ?? []);
    },
    async waitForDecision(ticketId, signal) {
      const state = await waitForDecision(db, ticketId, signal);
      if (state === undefined) return undefined;
      return state === 'approved' || state === 'rejected' ? state : 'closed';
    },
    async giveUp(ctx, ticketId) {
      const ticket = await db
        .selectFrom('tickets_ticket')
        .selectAll()
        .where('id', '=', ticketId)
        .where('type', '=', TYPE)
        .where('applicant_id', '=', ctx.userId)
        .where('state', '=', 'pending')
        .executeTakeFirst();
      if (!ticket) return;
      const via = await applicantOf(app, ctx);
      const actor = { id: ctx.userId, display: via.display, lang: ctx.lang, via };
      // Decided meanwhile by a reviewer: nothing left to give up.
      await actOn(app, ticket, actor, 'close').catch(() => undefined);
    },
    async sessionStarted(ticketId, sessionId) {
      const row = await db
        .selectFrom('tickets_ticket')
        .select('meta')
        .where('id', '=', ticketId)
        .where('type', '=', TYPE)
        .executeTakeFirst();
      if (!row) return;
      const meta = { ...(JSON.parse(row.meta) as object), apply_from_session: { id: sessionId } };
      await db
        .updateTable('tickets_ticket')
        .set({ meta: JSON.stringify(meta) })
        .where('id', '=', ticketId)
        .execute();
    },
  };
  setLoginAssetReviewer(port);
  app.addHook('onClose', async () => {
    if (loginAssetReviewer() === port) setLoginAssetReviewer(undefined);
  });
}
